/**
 * Visitors are anonymous (spec 6) and known only by a server-issued id: 128 random bits in an
 * HttpOnly cookie `{id}.{issued}.{tag}`, the tag an HMAC (server's visitor key) over the id and
 * its issue time, so a client can neither invent nor alter one, nor keep one alive past 400 days:
 * the server stops honouring it then (a new id follows), and issues it again, same id, once it is
 * a month old. Values of the earlier format (no issue time) count as no cookie: a fresh id.
 * The id is recorded in the visitors table the first time the visitor engages.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { TAppDeps } from '../deps.ts';
import { newId } from '../db/ids.ts';
import { cookieName, readCookie, setCookie, VISITOR_COOKIE } from '../access/cookies.ts';
import type { TCookieKeys } from '../access/server-secret.ts';
import { AppError } from '../http/app-error.ts';
import { insertVisitorIfMissing } from './visitors.repository.ts';

const VISITOR_VALUE = /^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,9})\.([A-Za-z0-9_-]{22})$/;
/** A visitor id is honoured this long after its cookie was issued (browsers cap cookies at 400 days too). */
export const VISITOR_MAX_AGE_MS = 400 * 86_400_000;
/** A cookie older than this is issued again (same id, new time) on the visitor's next request. */
export const VISITOR_RENEW_AFTER_MS = 30 * 86_400_000;
/** Issue times this far ahead of our clock are tolerated (API processes' clocks differ a little). */
const CLOCK_SKEW_MS = 5 * 60_000;
/** Visitors recorded by this process, so a returning visitor costs no write; bounded. */
const KNOWN_LIMIT = 100_000;

function tagOf(keys: TCookieKeys, id: string, issued: string): string {
  // 128 bits of the HMAC: enough that forging a tag is as hard as guessing an id.
  return createHmac('sha256', keys.visitor).update(`visitor-v2.${id}.${issued}`).digest('base64url').slice(0, 22);
}

/** A visitor cookie value for this id, issued now. */
export function signVisitorId(keys: TCookieKeys, id: string, now: number): string {
  const issued = Math.floor(now / 1000).toString(36);
  return `${id}.${issued}.${tagOf(keys, id, issued)}`;
}

export interface TVisitorCookie {
  id: string;
  issuedAt: number;
}

/** What a runtime remembers of its visitors (`deps.caches.visitors`); both bounded. */
export interface TVisitorCaches {
  /** Cookie values whose tag was already checked with this runtime's key (a returning visitor costs no HMAC). Age is checked on every use. */
  verified: Map<string, TVisitorCookie>;
  /** Visitors recorded by this process, so a returning visitor costs no write. */
  known: Set<string>;
}

export function createVisitorCaches(): TVisitorCaches {
  return { verified: new Map(), known: new Set() };
}

const VERIFIED_LIMIT = 50_000;

/** The id and issue time inside a visitor cookie value when its tag is right and it is not too old, else undefined. */
export function readVisitorCookie(keys: TCookieKeys, value: string | undefined, now: number, verified?: Map<string, TVisitorCookie>): TVisitorCookie | undefined {
  if (!value || value.length > 64) return undefined;
  let cookie = verified?.get(value);
  if (cookie === undefined) {
    cookie = checkVisitorTag(keys, value);
    if (cookie === undefined) return undefined;
    if (verified) {
      if (verified.size >= VERIFIED_LIMIT) verified.clear();
      verified.set(value, cookie);
    }
  }
  const age = now - cookie.issuedAt;
  return age < VISITOR_MAX_AGE_MS && age > -CLOCK_SKEW_MS ? cookie : undefined;
}

/** The id inside a visitor cookie value when its tag is right and it is not too old, else undefined. */
export function verifyVisitorCookie(keys: TCookieKeys, value: string | undefined, now: number): string | undefined {
  return readVisitorCookie(keys, value, now)?.id;
}

function checkVisitorTag(keys: TCookieKeys, value: string): TVisitorCookie | undefined {
  const match = VISITOR_VALUE.exec(value);
  if (!match) return undefined;
  const [, id, issued, tag] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(tagOf(keys, id, issued));
  const actual = Buffer.from(tag);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  return { id, issuedAt: Number.parseInt(issued, 36) * 1000 };
}

type TIdentityDeps = Pick<TAppDeps, 'config' | 'clock' | 'keys' | 'caches'>;

function readCookieOf(deps: TIdentityDeps, req: Request): TVisitorCookie | undefined {
  const keys = deps.keys?.cookie;
  if (!keys) return undefined;
  return readVisitorCookie(keys, readCookie(req, cookieName(deps.config, VISITOR_COOKIE)), deps.clock.now(), deps.caches.visitors.verified);
}

/** The visitor id proven by the request's cookie, or undefined (no cookie, bad tag, too old, keys not loaded). */
export function readVisitorId(deps: TIdentityDeps, req: Request): string | undefined {
  return readCookieOf(deps, req)?.id;
}

/**
 * The request's visitor, issuing a new id (and its cookie) when it has none, and its cookie again
 * when that is old. Sets res.locals.visitorId.
 */
export function ensureVisitorId(deps: TIdentityDeps, req: Request, res: Response): string {
  if (typeof res.locals.visitorId === 'string') return res.locals.visitorId;
  const current = readCookieOf(deps, req);
  const now = deps.clock.now();
  if (current && now - current.issuedAt < VISITOR_RENEW_AFTER_MS) {
    res.locals.visitorId = current.id;
    return current.id;
  }
  const keys = deps.keys?.cookie;
  if (!keys) throw new AppError('service_unavailable', 'Please try again in a moment.');
  const id = current?.id ?? newId();
  setCookie(res, deps.config, VISITOR_COOKIE, signVisitorId(keys, id, now), VISITOR_MAX_AGE_MS);
  res.locals.visitorId = id;
  return id;
}

/** Records the visitor in the visitors table once (per runtime, cached). */
export async function recordVisitor(deps: Pick<TAppDeps, 'db' | 'clock' | 'caches'>, visitorId: string): Promise<void> {
  const known = deps.caches.visitors.known;
  if (known.has(visitorId)) return;
  await insertVisitorIfMissing(deps.db, visitorId, deps.clock.now());
  if (known.size >= KNOWN_LIMIT) known.clear();
  known.add(visitorId);
}

/** Middleware for engagement calls: a visitor id in res.locals.visitorId, recorded in the visitors table. */
export function createVisitorMiddleware(deps: TIdentityDeps & Pick<TAppDeps, 'db'>): RequestHandler {
  return async (req, res, next) => {
    const id = ensureVisitorId(deps, req, res);
    await recordVisitor(deps, id);
    next();
  };
}
