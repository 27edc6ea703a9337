/**
 * Creators without an account (spec 7.2, companion 4): a server-issued token `id.secret` in an
 * HttpOnly cookie replaces the browser-made 'anon_{timestamp}_{random}'. Only the SHA-256 of the
 * secret is stored and it is compared in constant time, so a database dump or a guessed id
 * proves nothing. The session's 7-day window starts when it is issued.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { ANONYMOUS_WINDOW_MS } from '@dropsite/shared';
import type { TCreatorsDeps } from './creators.deps.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { ANONYMOUS_CREATOR_COOKIE, setCookie } from '../access/cookies.ts';
import { holdsAnonymousSession, principalOf, updatePrincipal, type TAnonymousSession, type TPrincipal } from '../access/principal.ts';
import { rateLimitedError } from '../access/rate-limiter.ts';
import { findAnonymousSession, insertAnonymousSession } from './anonymous-sessions.repository.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { requireCurrentWorkspace } from '../workspaces/current-workspace.ts';

type TDeps = Pick<TCreatorsDeps, 'db' | 'config' | 'clock'>;

const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
/**
 * The cookie outlives the 7-day window by far: the dashboard can still say 'expired' and offer
 * sign-up, and a late claim still recovers the session's sites while they live (sites may live
 * without an expiry). 400 days is the longest a browser keeps a cookie.
 */
const COOKIE_MAX_AGE_MS = 400 * 86_400_000;

export type { TAnonymousSession };

export function hashAnonymousSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The anonymous session a creator cookie's token proves, or null; claimed sessions no longer count.
 * The principal middleware calls it once per request, on first use (app.ts wires it).
 */
export async function lookUpAnonymousSession(deps: TDeps, token: string | undefined): Promise<TAnonymousSession | null> {
  const match = token ? TOKEN.exec(token) : null;
  if (!match) return null;
  const [, id, secret] = match as unknown as [string, string, string];
  const row = await findAnonymousSession(deps.db, id);
  // The hash is compared even for a missing row, so a miss costs the same as a wrong secret.
  const expected = row?.secret_hash ?? '0'.repeat(64);
  const isRight = sameText(hashAnonymousSecret(secret), expected);
  if (!row || !isRight || row.claimed_by !== null) return null;
  return { id: row.id, createdAt: row.created_at, expiresAt: row.expires_at, isExpired: deps.clock.now() >= row.expires_at };
}

async function insertAndSetCookie(deps: TDeps, res: Response, token: { id: string; secret: string }): Promise<TAnonymousSession> {
  const now = deps.clock.now();
  const expiresAt = now + ANONYMOUS_WINDOW_MS;
  await insertAnonymousSession(deps.db, { id: token.id, secret_hash: hashAnonymousSecret(token.secret), created_at: now, expires_at: expiresAt });
  setCookie(res, deps.config, ANONYMOUS_CREATOR_COOKIE, `${token.id}.${token.secret}`, COOKIE_MAX_AGE_MS);
  const session = { id: token.id, createdAt: now, expiresAt, isExpired: false };
  updatePrincipal(res, { anonymousSession: () => Promise.resolve(session) });
  return session;
}

/** A session promised to a creator without one, issued (row and cookie) only once the publish worked. */
interface TPendingAnonymousSession {
  id: string;
  secret: string;
}

function pendingSessionOf(res: Response): TPendingAnonymousSession | undefined {
  const pending: unknown = res.locals.pendingAnonymousSession;
  return pending && typeof pending === 'object' && 'id' in pending && 'secret' in pending ? (pending as TPendingAnonymousSession) : undefined;
}

/**
 * Middleware for the publish calls: who the site will belong to. A signed-in creator publishes as
 * their account (res.locals.ownerCreatorId) and gets no anonymous session. Anyone else publishes under
 * their anonymous session (res.locals.anonymousSessionId); one without a session (or whose window has
 * ended) gets a fresh id to publish under, but its row and cookie are made only by
 * issuePendingAnonymousSession once the publish is accepted, so refused uploads leave no sessions behind.
 */
export function createAnonymousCreatorMiddleware(deps: { db: Kysely<Database> }): RequestHandler {
  return async (_req, res, next) => {
    const creator = await principalOf(res).signedInCreator();
    if (creator) {
      // A signed-in creator publishes into their current workspace, in a role that may create sites (403 otherwise).
      const access = await requireCurrentWorkspace(deps.db, principalOf(res), 'sites.create');
      res.locals.ownerCreatorId = creator.id;
      res.locals.publishWorkspaceId = access.workspaceId;
      next();
      return;
    }
    const session = await principalOf(res).anonymousSession();
    if (session && !session.isExpired) {
      res.locals.anonymousSessionId = session.id;
    } else {
      const pending: TPendingAnonymousSession = { id: newId(), secret: randomBytes(32).toString('base64url') };
      res.locals.pendingAnonymousSession = pending;
      res.locals.anonymousSessionId = pending.id;
    }
    next();
  };
}

/**
 * Who a publish call's site belongs to, as the middleware above decided: a workspace (and the account
 * that publishes it there), or an anonymous session.
 */
export function publishOwnerOf(res: Response): { ownerCreatorId: string | null; workspaceId: string | null; anonymousSessionId: string | null } {
  const ownerCreatorId: unknown = res.locals.ownerCreatorId;
  const workspaceId: unknown = res.locals.publishWorkspaceId;
  const anonymousSessionId: unknown = res.locals.anonymousSessionId;
  if (typeof ownerCreatorId === 'string') return { ownerCreatorId, workspaceId: typeof workspaceId === 'string' ? workspaceId : ownerCreatorId, anonymousSessionId: null };
  return { ownerCreatorId: null, workspaceId: null, anonymousSessionId: typeof anonymousSessionId === 'string' ? anonymousSessionId : null };
}

/** After a publish was accepted: issues the session it was made under, when the creator had none. */
export async function issuePendingAnonymousSession(deps: TDeps, res: Response): Promise<void> {
  const pending = pendingSessionOf(res);
  if (!pending) return;
  res.locals.pendingAnonymousSession = undefined;
  await insertAndSetCookie(deps, res, pending);
}

/**
 * The caller's own session when `sessionId` names it; anything else (no token, someone else's id,
 * a guessed id) is the same 404, and such misses are rate limited per address.
 */
export async function resolveOwnAnonymousSession(deps: Pick<TCreatorsDeps, 'limits'>, principal: TPrincipal, sessionId: string): Promise<TAnonymousSession> {
  const limiter = deps.limits.requests.lookupMisses;
  const address = principal.address;
  const waiting = await limiter.peek(address);
  if (!waiting.allowed) throw rateLimitedError(waiting);
  const session = await holdsAnonymousSession(principal, sessionId);
  if (!session) {
    const decision = await limiter.take(address);
    if (!decision.allowed) throw rateLimitedError(decision);
    throw new AppError('not_found', 'Not found');
  }
  return session;
}
