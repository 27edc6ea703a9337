/** A site by its slug as the principal may see it, and how far its build is. */
import type { TSitesDeps } from './sites.deps.ts';
import type { TSiteRow, TRemovedSiteReason } from '../db/tables.ts';
import type { TPrincipal } from '../access/principal.ts';
import { toPublicContactInfo } from '@dropsite/shared';
import { findSiteBySlug, findRemovedSiteBySlug, parseContactInfo } from '../site-records/site-records.repository.ts';
import { findLatestBuildForSite } from '../builds/builds.repository.ts';
import { resolveSiteAccess, type TSiteAccess } from './site-access.ts';
import { findRemovedSiteReason } from '../access/access.repository.ts';
import { goneSiteFacts, type TGoneSiteFacts } from './status-pages.ts';

type TDeps = Pick<TSitesDeps, 'db' | 'clock' | 'keys'> & Partial<Pick<TSitesDeps, 'caches'>>;

/**
 * The live site of this slug (null when there is none) and the access the principal has to it. With
 * the runtime's caches the row may be the read cache's (on SQLite): read-only.
 */
export async function openSiteBySlug(deps: TDeps, principal: TPrincipal, slug: string): Promise<{ site: TSiteRow | null; access: TSiteAccess }> {
  const site = await findSiteBySlug(deps.db, slug, deps.caches);
  return { site, access: resolveSiteAccess(deps, principal, site) };
}

/** Progress and stage of the site's latest build, for the holding page and the status call. */
export async function buildProgressOf(deps: TDeps, siteId: string): Promise<{ progress: number; stage: string } | null> {
  const build = await findLatestBuildForSite(deps.db, siteId);
  return build ? { progress: build.progress, stage: build.stage } : null;
}

/** What a site's expired or removed page may say of it (status-pages.ts goneSiteFacts). */
export function goneFactsOf(site: Pick<TSiteRow, 'title' | 'author_name' | 'contact_info' | 'password_hash'>): TGoneSiteFacts | null {
  return goneSiteFacts(site, toPublicContactInfo(parseContactInfo(site.contact_info)).email);
}

/**
 * Why the slug holds no live site, when it held one: 'taken-down' by an operator (answered 451,
 * nothing of the site shown), 'removed' by its creator or 'expired' (410, with what goneFactsOf
 * allows while its record is kept; nothing once only the reason is left).
 */
export async function removedSiteBySlug(deps: Pick<TSitesDeps, 'db'>, slug: string): Promise<{ reason: TRemovedSiteReason; facts: TGoneSiteFacts | null } | null> {
  const row = await findRemovedSiteBySlug(deps.db, slug);
  if (row) return { reason: row.taken_down_at !== null ? 'taken-down' : 'removed', facts: row.taken_down_at !== null ? null : goneFactsOf(row) };
  const reason = await findRemovedSiteReason(deps.db, slug);
  return reason ? { reason, facts: null } : null;
}
