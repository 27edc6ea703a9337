/**
 * The unlock cookie of a password-protected site: an HMAC over the site id, its password version
 * (and stored hash) and the visitor id. Bound to one site, so another site's cookie never works
 * even with the same password (Lychee CVE-2026-22784); bound to the password version, so a
 * changed or removed password revokes every earlier unlock (Nextcloud CVE-2018-16465); bound to
 * the visitor, so a copied cookie alone opens nothing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TCookieKeys } from './server-secret.ts';

export interface TUnlockSubject {
  id: string;
  password_version: number;
  password_hash: string | null;
}

export function unlockTokenFor(keys: TCookieKeys, site: TUnlockSubject, visitorId: string): string {
  return createHmac('sha256', keys.unlock)
    .update(`${site.id}\u0000${site.password_version}\u0000${site.password_hash ?? ''}\u0000${visitorId}`)
    .digest('base64url');
}

export function isUnlockTokenValid(keys: TCookieKeys, site: TUnlockSubject, visitorId: string, token: string | undefined): boolean {
  if (!token || token.length !== 43) return false;
  const expected = Buffer.from(unlockTokenFor(keys, site, visitorId));
  const actual = Buffer.from(token);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
