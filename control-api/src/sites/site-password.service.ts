/** Unlocking a password-protected site, and changing a site's password. */
import type { TSitesDeps } from './sites.deps.ts';
import type { TSiteRow } from '../db/tables.ts';
import { ZSitePasswordSchema } from '@dropsite/shared';
import { findSiteBySlug } from '../site-records/site-records.repository.ts';
import { issueUnlockToken } from '../access/unlock-token.ts';
import { setSitePasswordHash, upgradeSitePasswordHash } from '../access/access.repository.ts';
import { hashPassword, needsRehash, spendDummyVerification, type THashClient, verifyPassword } from './password-hash.ts';
import { checkSiteAccess } from './site-access.ts';

type TDeps = Pick<TSitesDeps, 'db' | 'clock' | 'keys'>;

export type TUnlockOutcome =
  /** The unlock cookie's value and lifetime go to the visitor. */
  | { kind: 'unlocked'; site: TSiteRow; unlock: { value: string; maxAgeMs: number } }
  | { kind: 'open'; site: TSiteRow }
  | { kind: 'wrong'; site: TSiteRow }
  | { kind: 'missing' }
  | { kind: 'expired'; site: TSiteRow };

/**
 * Checks a guess for a site and, when right, issues the site's unlock for the visitor
 * `visitorId()` names (called only then: it may issue the visitor's id). Exactly one password
 * verification runs whatever the site's state, in the client address's share of the hash queue.
 */
export async function unlockSite(deps: TDeps, visitorId: () => string, slug: string, password: string, by: THashClient = {}): Promise<TUnlockOutcome> {
  const site = await findSiteBySlug(deps.db, slug);
  const access = checkSiteAccess(site, deps.clock);
  if (!site || access === 'missing') {
    await spendDummyVerification(password, by);
    return { kind: 'missing' };
  }
  if (access === 'expired' || access === 'open' || !site.password_hash) {
    await spendDummyVerification(password, by);
    return access === 'expired' ? { kind: 'expired', site } : { kind: 'open', site };
  }
  if (!(await verifyPassword(password, site.password_hash, by))) return { kind: 'wrong', site };
  const keys = deps.keys?.cookie;
  if (!keys) throw new Error('Cookie keys are not loaded');
  const visitor = visitorId();
  // A site published before argon2id: the password just proven is stored again as argon2id
  // (same version), before the unlock is issued so the unlock is bound to the new hash.
  let unlocked = site;
  if (needsRehash(site.password_hash)) {
    const upgraded = await hashPassword(password, by);
    if (await upgradeSitePasswordHash(deps.db, site.id, site.password_hash, upgraded)) unlocked = { ...site, password_hash: upgraded };
  }
  // 12 hours, or until the site expires if that is sooner; the expiry is inside the MAC.
  const token = issueUnlockToken(keys, unlocked, visitor, deps.clock.now());
  return { kind: 'unlocked', site: unlocked, unlock: token };
}

/**
 * Sets, changes or (with null) removes a site's password. The version bump revokes every unlock
 * issued before, at once (Nextcloud CVE-2018-16465: access that survived a password change).
 * Setting one on a public site must run inside edge/public-page.ts's changeSiteAccess (as the site
 * management does), which takes the page off the edge first.
 */
export async function changeSitePassword(deps: TDeps, siteId: string, password: string | null): Promise<boolean> {
  const hash = password === null || password === '' ? null : await hashPassword(ZSitePasswordSchema.parse(password));
  return setSitePasswordHash(deps.db, siteId, hash, deps.clock.now());
}
