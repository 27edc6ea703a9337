/**
 * Visitors are anonymous (spec 6) and known only by a server-issued id: 128 random bits in an
 * HttpOnly cookie, signed with the server's visitor key so a client can neither invent nor
 * alter one. The id is recorded in the visitors table the first time the visitor engages.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { isValidSlug } from '@dropsite/shared';
import type { TAppDeps } from '../deps.ts';
import { newId } from '../db/ids.ts';
import { cookieName, readCookie, setCookie, VISITOR_COOKIE } from '../access/cookies.ts';
import { cookieKeysOf, type TCookieKeys } from '../access/server-secret.ts';
import { AppError } from '../http/app-error.ts';
import { insertVisitorIfMissing } from './visitors.repository.ts';

const VISITOR_ID = /^[A-Za-z0-9_-]{22}$/;
const VISITOR_COOKIE_MAX_AGE_MS = 365 * 86_400_000;
/** Visitors recorded by this process, so a returning visitor costs no write; bounded. */
const KNOWN_LIMIT = 100_000;

function tagOf(keys: TCookieKeys, id: string): string {
  // 128 bits of the HMAC: enough that forging a tag is as hard as guessing an id.
  return createHmac('sha256', keys.visitor).update(id).digest('base64url').slice(0, 22);
}

export function signVisitorId(keys: TCookieKeys, id: string): string {
  return `${id}.${tagOf(keys, id)}`;
}

const verifiedByKeys = new WeakMap<TCookieKeys, Map<string, string>>();
/** Cookie values already verified by this process (a returning visitor costs no HMAC); bounded. */
const VERIFIED_LIMIT = 50_000;

/** The id inside a visitor cookie value when its tag is right, else undefined. */
export function verifyVisitorCookie(keys: TCookieKeys, value: string | undefined): string | undefined {
  if (!value || value.length !== 45) return undefined;
  let verified = verifiedByKeys.get(keys);
  if (!verified) {
    verified = new Map();
    verifiedByKeys.set(keys, verified);
  }
  const known = verified.get(value);
  if (known !== undefined) return known;
  const id = checkVisitorTag(keys, value);
  if (id !== undefined) {
    if (verified.size >= VERIFIED_LIMIT) verified.clear();
    verified.set(value, id);
  }
  return id;
}

function checkVisitorTag(keys: TCookieKeys, value: string): string | undefined {
  const id = value.slice(0, 22);
  const tag = value.slice(23);
  if (value[22] !== '.' || !VISITOR_ID.test(id)) return undefined;
  const expected = Buffer.from(tagOf(keys, id));
  const actual = Buffer.from(tag);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? id : undefined;
}

/** The visitor id proven by the request's cookie, or undefined (no cookie, bad tag, keys not loaded). */
export function readVisitorId(deps: Pick<TAppDeps, 'db' | 'config'>, req: Request): string | undefined {
  const keys = cookieKeysOf(deps);
  if (!keys) return undefined;
  return verifyVisitorCookie(keys, readCookie(req, cookieName(deps.config, VISITOR_COOKIE)));
}

/** The request's visitor, issuing a new id (and its cookie) when it has none. Sets res.locals.visitorId. */
export function ensureVisitorId(deps: Pick<TAppDeps, 'db' | 'config'>, req: Request, res: Response): string {
  const current = typeof res.locals.visitorId === 'string' ? res.locals.visitorId : readVisitorId(deps, req);
  if (current) {
    res.locals.visitorId = current;
    return current;
  }
  const keys = cookieKeysOf(deps);
  if (!keys) throw new AppError('service_unavailable', 'Please try again in a moment.');
  const id = newId();
  setCookie(res, deps.config, VISITOR_COOKIE, signVisitorId(keys, id), VISITOR_COOKIE_MAX_AGE_MS);
  res.locals.visitorId = id;
  return id;
}

const knownByDb = new WeakMap<object, Set<string>>();

/** Records the visitor in the visitors table once (per process, cached). */
export async function recordVisitor(deps: Pick<TAppDeps, 'db' | 'clock'>, visitorId: string): Promise<void> {
  let known = knownByDb.get(deps.db);
  if (!known) {
    known = new Set();
    knownByDb.set(deps.db, known);
  }
  if (known.has(visitorId)) return;
  await insertVisitorIfMissing(deps.db, visitorId, deps.clock.now());
  if (known.size >= KNOWN_LIMIT) known.clear();
  known.add(visitorId);
}

/** Middleware for engagement calls: a visitor id in res.locals.visitorId, recorded in the visitors table. */
export function createVisitorMiddleware(deps: Pick<TAppDeps, 'db' | 'config' | 'clock'>): RequestHandler {
  return async (req, res, next) => {
    const id = ensureVisitorId(deps, req, res);
    await recordVisitor(deps, id);
    next();
  };
}

/**
 * Middleware for site pages (GET /{slug}): gives a first-time visitor its cookie with the page,
 * so the page's own calls share one id. Nothing is written until the visitor engages.
 */
export function createSitePageVisitorMiddleware(deps: Pick<TAppDeps, 'db' | 'config'>): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    if (path.length < 2 || path.indexOf('/', 1) !== -1 || !isValidSlug(path.slice(1))) return next();
    if (cookieKeysOf(deps)) ensureVisitorId(deps, req, res);
    next();
  };
}
