/**
 * Visitors are anonymous (spec 6) and known only by a server-issued id: 128 random bits in an
 * HttpOnly cookie `{id}.{issued}.{tag}`, the tag an HMAC (server's visitor key) over the id and
 * its issue time, so a client can neither invent nor alter one, nor keep one alive past 400 days:
 * the server stops honouring it then (a new id follows), and issues it again, same id, once it is
 * a month old. Values of the earlier format (no issue time) count as no cookie: a fresh id.
 * The principal carries the id the cookie proves; visitors/ records it the first time the visitor engages.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { VISITOR_ID_MAX_AGE_DAYS } from '@dropsite/shared';
import type { TCookieKeys } from './server-secret.ts';

const VISITOR_VALUE = /^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,9})\.([A-Za-z0-9_-]{22})$/;
/** A visitor id is honoured this long after its cookie was issued (browsers cap cookies at 400 days too). */
export const VISITOR_MAX_AGE_MS = VISITOR_ID_MAX_AGE_DAYS * 86_400_000;
/** A cookie older than this is issued again (same id, new time) on the visitor's next request. */
export const VISITOR_RENEW_AFTER_MS = 30 * 86_400_000;
/** Issue times this far ahead of our clock are tolerated (API processes' clocks differ a little). */
const CLOCK_SKEW_MS = 5 * 60_000;

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

/** Cookie values whose tag was already checked with a runtime's key (`deps.caches.visitorCookies`): a returning visitor costs no HMAC. Age is checked on every use. */
export type TVerifiedVisitorCookies = Map<string, TVisitorCookie>;

const VERIFIED_LIMIT = 50_000;

/** The id and issue time inside a visitor cookie value when its tag is right and it is not too old, else undefined. */
export function readVisitorCookie(keys: TCookieKeys, value: string | undefined, now: number, verified?: TVerifiedVisitorCookies): TVisitorCookie | undefined {
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

function checkVisitorTag(keys: TCookieKeys, value: string): TVisitorCookie | undefined {
  const match = VISITOR_VALUE.exec(value);
  if (!match) return undefined;
  const [, id, issued, tag] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(tagOf(keys, id, issued));
  const actual = Buffer.from(tag);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  return { id, issuedAt: Number.parseInt(issued, 36) * 1000 };
}
