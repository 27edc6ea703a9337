/**
 * Who is asking. One middleware reads it once per request, from the request's address and
 * cookies, into a value routes take with `principalOf(res)` and hand to services, which never see
 * Express's request or response: the visitor (the visitor cookie), the sites the request carries an
 * unlock for (the unlock cookies), and the anonymous creator (the creator cookie, looked up once, on
 * first use). A signed-in creator (accounts) joins it here, without a service changing.
 */
import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { TAppDeps } from '../deps.ts';
import type { TProjectRow } from '../db/tables.ts';
import { ANONYMOUS_CREATOR_COOKIE, cookieName, readCookieFrom, UNLOCK_COOKIE_PREFIX, VISITOR_COOKIE } from './cookies.ts';
import { clientAddress } from './request-limits.ts';
import { readVisitorCookie } from './visitor-cookie.ts';

export interface TAnonymousSession {
  id: string;
  createdAt: number;
  expiresAt: number;
  isExpired: boolean;
}

export interface TPrincipal {
  /** The client's address as per-address limits count it (see clientAddress). */
  readonly address: string;
  /** The visitor the visitor cookie proves; undefined without one (or with a forged or too old one). */
  readonly visitorId: string | undefined;
  /** When that cookie was issued (it is issued again once it is a month old). */
  readonly visitorIssuedAt: number | undefined;
  /** The unlock the request carries for a site (its cookie's token); checked against the site where it is used. */
  unlockTokenFor(siteId: string): string | undefined;
  /** The anonymous creator session the creator cookie proves (looked up once, on first use); null for none, a claimed or an unknown one. */
  anonymousSession(): Promise<TAnonymousSession | null>;
}

/** How the principal's parts that need the database are found (given by the app, which wires the folders). */
export interface TPrincipalResolvers {
  lookUpAnonymousSession(token: string): Promise<TAnonymousSession | null>;
}

/** Name of a site's unlock cookie (one per site, so unlocking one never touches another). */
export function unlockCookieBase(siteId: string): string {
  return `${UNLOCK_COOKIE_PREFIX}${siteId}`;
}

/** The middleware that resolves the principal; mounted before every router. */
export function createPrincipalMiddleware(deps: Pick<TAppDeps, 'config' | 'clock' | 'keys' | 'caches'>, resolvers: TPrincipalResolvers): RequestHandler {
  const visitorCookie = cookieName(deps.config, VISITOR_COOKIE);
  const creatorCookie = cookieName(deps.config, ANONYMOUS_CREATOR_COOKIE);
  return (req, res, next) => {
    const header = req.headers.cookie;
    const keys = deps.keys?.cookie;
    const visitor = keys ? readVisitorCookie(keys, readCookieFrom(header, visitorCookie), deps.clock.now(), deps.caches.visitorCookies) : undefined;
    let session: Promise<TAnonymousSession | null> | undefined;
    const principal: TPrincipal = {
      address: clientAddress(req),
      visitorId: visitor?.id,
      visitorIssuedAt: visitor?.issuedAt,
      unlockTokenFor: (siteId) => readCookieFrom(header, cookieName(deps.config, unlockCookieBase(siteId))),
      anonymousSession() {
        if (!session) {
          const token = readCookieFrom(header, creatorCookie);
          session = token ? resolvers.lookUpAnonymousSession(token) : Promise.resolve(null);
        }
        return session;
      },
    };
    res.locals.principal = principal;
    next();
  };
}

/** The request's principal (the middleware runs before every router). */
export function principalOf(res: Response): TPrincipal {
  const principal: unknown = res.locals.principal;
  if (typeof principal !== 'object' || principal === null || !('address' in principal)) throw new Error('The principal middleware did not run');
  return principal as TPrincipal;
}

/** Replaces the request's principal, e.g. once a visitor id or a creator session was issued during it. */
export function updatePrincipal(res: Response, changes: Partial<Pick<TPrincipal, 'visitorId' | 'visitorIssuedAt' | 'anonymousSession'>>): TPrincipal {
  const next: TPrincipal = { ...principalOf(res), ...changes };
  res.locals.principal = next;
  return next;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether the caller's anonymous session (within its window) is this one. */
export async function holdsAnonymousSession(principal: TPrincipal, sessionId: string): Promise<TAnonymousSession | null> {
  const session = await principal.anonymousSession();
  return session && sameText(session.id, sessionId) ? session : null;
}

/** Whether the principal is the creator who owns the project (today: the anonymous creator holding its token, within the window). */
export async function isProjectOwner(principal: TPrincipal, project: Pick<TProjectRow, 'anonymous_session_id' | 'owner_creator_id'>): Promise<boolean> {
  if (project.anonymous_session_id === null) return false;
  const session = await principal.anonymousSession();
  return session !== null && !session.isExpired && sameText(session.id, project.anonymous_session_id);
}
