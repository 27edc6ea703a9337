/**
 * One-time rebuilds a migration asked for (e.g. every stored page rewritten after the render model
 * changed). Run at start-up by every process; the one that deletes a request queues its rebuilds,
 * so with several API processes each site is queued once. Queued, not awaited: start-up goes on.
 * The stored page is withdrawn before its rebuild is queued: a migration asks for a rebuild because
 * stored pages are wrong (e.g. they held owner data), so the old page is never served again, even
 * when its rebuild fails. Visitors see the building page for the moments the rebuild takes.
 */
import { STORED_CODINGS, siteHtmlKey, siteHtmlVariantKey } from '@dropsite/shared';
import type { TBuildsDeps } from './builds.deps.ts';
import { bumpSiteVersion, listLiveSites } from '../site-records/site-records.repository.ts';
import { enqueueSiteBuild } from './builds.service.ts';
import { withdrawPublicPage } from '../edge/public-page.ts';

export interface TPendingRebuildsResult {
  /** Reasons taken by this process. */
  reasons: string[];
  /** Sites queued for a rebuild. */
  queued: number;
}

export async function runPendingSiteRebuilds(deps: TBuildsDeps): Promise<TPendingRebuildsResult> {
  const { db, log } = deps;
  const requests = await db.selectFrom('pending_site_rebuilds').selectAll().orderBy('requested_at').execute();
  const result: TPendingRebuildsResult = { reasons: [], queued: 0 };
  for (const request of requests) {
    const taken = await db.deleteFrom('pending_site_rebuilds').where('reason', '=', request.reason).executeTakeFirst();
    if (Number(taken.numDeletedRows) !== 1) continue; // another process took it
    try {
      // Live sites only: expired ones answer 410 and are purged; deleted ones are gone.
      const sites = await listLiveSites(db, deps.clock.now());
      for (const { id: siteId, slug } of sites) {
        // Its copy at the edge first, then its compressed variants: they are served only while they exist, the page decides whether the site is built.
        await withdrawPublicPage(deps.storage, slug);
        for (const coding of STORED_CODINGS) await deps.storage.delete(siteHtmlVariantKey(slug, coding));
        await deps.storage.delete(siteHtmlKey(slug));
        const version = await bumpSiteVersion(db, siteId, deps.clock.now());
        await enqueueSiteBuild(deps, siteId, version);
        result.queued++;
      }
      result.reasons.push(request.reason);
      log.info({ reason: request.reason, sites: sites.length }, 'site rebuilds queued');
    } catch (err) {
      // Put the request back so the next start tries again (builds already queued are idempotent).
      await db
        .insertInto('pending_site_rebuilds')
        .values(request)
        .onConflict((oc) => oc.column('reason').doNothing())
        .execute();
      throw err;
    }
  }
  return result;
}
