/**
 * The unlock cookie of a password-protected site: `{expiry}.{mac}`, the MAC an HMAC over the site
 * id, its password version (and stored hash), the visitor id and the expiry. Bound to one site, so
 * another site's cookie never works even with the same password (Lychee CVE-2026-22784); bound to
 * the password version, so a changed or removed password revokes every earlier unlock (Nextcloud
 * CVE-2018-16465); bound to the visitor, so a copied cookie alone opens nothing; and ending on the
 * server at its expiry (12 hours, or the site's expiry if sooner), whatever the browser keeps.
 * Values of the earlier format (a MAC without an expiry) never match: that visitor unlocks again.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TCookieKeys } from './server-secret.ts';

/** An unlock is honoured this long at most. */
export const UNLOCK_MAX_AGE_MS = 12 * 3_600_000;

const TOKEN = /^([0-9a-z]{1,10})\.([A-Za-z0-9_-]{43})$/;

export interface TUnlockSubject {
  id: string;
  password_version: number;
  password_hash: string | null;
}

function macOf(keys: TCookieKeys, site: TUnlockSubject, visitorId: string, expirySeconds: number): string {
  return createHmac('sha256', keys.unlock)
    .update(`unlock-v2\u0000${site.id}\u0000${site.password_version}\u0000${site.password_hash ?? ''}\u0000${visitorId}\u0000${expirySeconds}`)
    .digest('base64url');
}

/** A new unlock for this visitor: the cookie value and how long the browser should keep it. */
export function issueUnlockToken(keys: TCookieKeys, site: TUnlockSubject & { expires_at: number | null }, visitorId: string, now: number): { value: string; maxAgeMs: number } {
  const expiresAt = Math.min(now + UNLOCK_MAX_AGE_MS, site.expires_at ?? Number.POSITIVE_INFINITY);
  const expirySeconds = Math.floor(expiresAt / 1000);
  return { value: `${expirySeconds.toString(36)}.${macOf(keys, site, visitorId, expirySeconds)}`, maxAgeMs: expirySeconds * 1000 - now };
}

export function isUnlockTokenValid(keys: TCookieKeys, site: TUnlockSubject, visitorId: string, token: string | undefined, now: number): boolean {
  const match = token ? TOKEN.exec(token) : null;
  if (!match) return false;
  const expirySeconds = Number.parseInt(match[1]!, 36);
  // Expired, or further ahead than any unlock is ever issued for.
  if (expirySeconds * 1000 <= now || expirySeconds * 1000 > now + UNLOCK_MAX_AGE_MS + 60_000) return false;
  const expected = Buffer.from(macOf(keys, site, visitorId, expirySeconds));
  const actual = Buffer.from(match[2]!);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
