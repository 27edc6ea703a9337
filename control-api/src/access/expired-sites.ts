/**
 * The sweeper: an expired site answers 410 from the expiry instant; after a grace period
 * (EXPIRED_SITE_GRACE_DAYS) its stored objects (originals, built HTML, derived images no other
 * site shares) and its rows (site, files, engagement, analytics, builds) are removed.
 * Objects go first and rows last, so an interrupted sweep is finished by the next one.
 */
import { derivedPrefix, projectUploadsPrefix, sitePrefix } from '@dropsite/shared';
import type { TAccessDeps } from './access.deps.ts';
import { withdrawPublicPage } from '../edge/public-page.ts';
import { deleteSiteRow, isContentHashUsedElsewhere, listContentHashesOfSite, listSitesExpiredBefore } from './access.repository.ts';
import { runPeriodically, type TPeriodicTask } from '../periodic-task.ts';

type TDeps = Pick<TAccessDeps, 'db' | 'storage' | 'config' | 'clock' | 'log'>;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const BATCH = 100;

export interface TExpiredSitesSweep {
  removed: string[];
  failed: string[];
}

export async function sweepExpiredSites(deps: TDeps, options: { graceDays?: number; dryRun?: boolean } = {}): Promise<TExpiredSitesSweep> {
  const graceMs = (options.graceDays ?? deps.config.expiredSiteGraceDays) * 86_400_000;
  const before = deps.clock.now() - graceMs;
  const result: TExpiredSitesSweep = { removed: [], failed: [] };
  for (;;) {
    const sites = await listSitesExpiredBefore(deps.db, before, BATCH);
    const pending = sites.filter((s) => !result.failed.includes(s.slug));
    if (pending.length === 0 || options.dryRun) {
      if (options.dryRun) result.removed.push(...pending.map((s) => s.slug));
      return result;
    }
    for (const site of pending) {
      try {
        await removeSite(deps, site);
        result.removed.push(site.slug);
      } catch (err) {
        deps.log.error({ err, projectId: site.id, slug: site.slug }, 'could not remove an expired site');
        result.failed.push(site.slug);
      }
    }
  }
}

async function removeSite(deps: TDeps, site: { id: string; slug: string }): Promise<void> {
  const hashes = await listContentHashesOfSite(deps.db, site.id);
  // Never published while it had an expiry; removed anyway, in case it was copied before this code knew.
  await withdrawPublicPage(deps.storage, site.slug);
  await deps.storage.deletePrefix(projectUploadsPrefix(site.id));
  await deps.storage.deletePrefix(sitePrefix(site.slug));
  for (const sha256 of hashes) {
    const hash = sha256.toLowerCase();
    if (!SHA256_HEX.test(hash)) continue;
    if (!(await isContentHashUsedElsewhere(deps.db, sha256, site.id))) await deps.storage.deletePrefix(derivedPrefix(hash));
  }
  await deleteSiteRow(deps.db, site.id, deps.clock.now());
  deps.log.info({ projectId: site.id, slug: site.slug }, 'expired site removed');
}

/** Sweeps every EXPIRED_SITE_SWEEP_MINUTES in the API process until stopped. */
export function startExpiredSiteSweeper(deps: TDeps): TPeriodicTask {
  return runPeriodically(() => sweepExpiredSites(deps), {
    everyMs: deps.config.expiredSiteSweepMinutes * 60_000,
    // Once soon after start too, so a process that restarts often still sweeps.
    firstAfterMs: 30_000,
    onError: (err) => deps.log.error({ err }, 'expired-site sweep failed'),
  });
}
