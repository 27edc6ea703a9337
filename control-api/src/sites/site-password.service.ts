/** Unlocking a password-protected site, and changing a site's password. */
import type { TSitesDeps } from './sites.deps.ts';
import type { TProjectRow } from '../db/tables.ts';
import { ZSitePasswordSchema } from '@dropsite/shared';
import { findProjectBySlug } from '../site-records/site-records.repository.ts';
import { issueUnlockToken } from '../access/unlock-token.ts';
import { setProjectPasswordHash, upgradeProjectPasswordHash } from '../access/access.repository.ts';
import { hashPassword, needsRehash, spendDummyVerification, type THashClient, verifyPassword } from './password-hash.ts';
import { checkSiteAccess } from './site-access.ts';

type TDeps = Pick<TSitesDeps, 'db' | 'clock' | 'keys'>;

export type TUnlockOutcome =
  /** The unlock cookie's value and lifetime go to the visitor. */
  | { kind: 'unlocked'; project: TProjectRow; unlock: { value: string; maxAgeMs: number } }
  | { kind: 'open'; project: TProjectRow }
  | { kind: 'wrong'; project: TProjectRow }
  | { kind: 'missing' }
  | { kind: 'expired'; project: TProjectRow };

/**
 * Checks a guess for a site and, when right, issues the site's unlock for the visitor
 * `visitorId()` names (called only then: it may issue the visitor's id). Exactly one password
 * verification runs whatever the site's state, in the client address's share of the hash queue.
 */
export async function unlockSite(deps: TDeps, visitorId: () => string, slug: string, password: string, by: THashClient = {}): Promise<TUnlockOutcome> {
  const project = await findProjectBySlug(deps.db, slug);
  const access = checkSiteAccess(project, deps.clock);
  if (!project || access === 'missing') {
    await spendDummyVerification(password, by);
    return { kind: 'missing' };
  }
  if (access === 'expired' || access === 'open' || !project.password_hash) {
    await spendDummyVerification(password, by);
    return access === 'expired' ? { kind: 'expired', project } : { kind: 'open', project };
  }
  if (!(await verifyPassword(password, project.password_hash, by))) return { kind: 'wrong', project };
  const keys = deps.keys?.cookie;
  if (!keys) throw new Error('Cookie keys are not loaded');
  const visitor = visitorId();
  // A site published before argon2id: the password just proven is stored again as argon2id
  // (same version), before the unlock is issued so the unlock is bound to the new hash.
  let unlocked = project;
  if (needsRehash(project.password_hash)) {
    const upgraded = await hashPassword(password, by);
    if (await upgradeProjectPasswordHash(deps.db, project.id, project.password_hash, upgraded)) unlocked = { ...project, password_hash: upgraded };
  }
  // 12 hours, or until the site expires if that is sooner; the expiry is inside the MAC.
  const token = issueUnlockToken(keys, unlocked, visitor, deps.clock.now());
  return { kind: 'unlocked', project: unlocked, unlock: token };
}

/**
 * Sets, changes or (with null) removes a site's password. The version bump revokes every unlock
 * issued before, at once (Nextcloud CVE-2018-16465: access that survived a password change).
 * Setting one on a public site must run inside edge/public-page.ts's changeSiteAccess (as the site
 * management does), which takes the page off the edge first.
 */
export async function changeSitePassword(deps: TDeps, projectId: string, password: string | null): Promise<boolean> {
  const hash = password === null || password === '' ? null : await hashPassword(ZSitePasswordSchema.parse(password));
  return setProjectPasswordHash(deps.db, projectId, hash, deps.clock.now());
}
