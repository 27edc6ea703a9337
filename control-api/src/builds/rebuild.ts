/** Re-renders sites through the queue (ops CLI and benchmarks): a new version per site, then waits. */
import type { TBuildsDeps } from './builds.deps.ts';
import { bumpSiteVersion, findSiteBySlug, listSiteIds } from '../site-records/site-records.repository.ts';
import { listFinishedBuilds } from './builds.repository.ts';
import { enqueueSiteBuild } from './builds.service.ts';

/** Sites being queued at once (version bump, build row, job). */
const ENQUEUE_LANES = 16;

export interface TRebuildProgress {
  total: number;
  done: number;
  failed: number;
}

export interface TRebuildResult extends TRebuildProgress {
  ms: number;
}

/**
 * Bumps each site's version and queues its build, 16 at a time (with BullMQ each is a round trip
 * to Redis, and one by one they held back the builders); answers the build ids. An aborted signal
 * stops the lanes at their next site.
 */
export async function enqueueRebuilds(deps: TBuildsDeps, siteIds: readonly string[], signal?: AbortSignal): Promise<string[]> {
  const buildIds: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < siteIds.length && !signal?.aborted) {
      const siteId = siteIds[next++]!;
      const version = await bumpSiteVersion(deps.db, siteId, deps.clock.now());
      buildIds.push(await enqueueSiteBuild(deps, siteId, version));
    }
  };
  await Promise.all(Array.from({ length: Math.min(ENQUEUE_LANES, siteIds.length) }, lane));
  return buildIds;
}

/**
 * Queues a rebuild of each site (enqueueRebuilds) and waits for all of them, reporting progress after
 * each look at the rows. Each look asks only about the builds not yet finished, and a large rebuild
 * looks less often (every `pollMs`, up to a second for 10,000 sites), so waiting costs the database
 * little next to the builds themselves.
 */
export async function rebuildSites(deps: TBuildsDeps, siteIds: string[], onProgress: (p: TRebuildProgress) => void = () => {}, pollMs?: number): Promise<TRebuildResult> {
  const started = performance.now();
  const buildIds = await enqueueRebuilds(deps, siteIds);
  const interval = pollMs ?? Math.min(1000, Math.max(100, buildIds.length / 10));
  const pending = new Set(buildIds);
  const progress: TRebuildProgress = { total: buildIds.length, done: 0, failed: 0 };
  onProgress({ ...progress });
  while (pending.size > 0) {
    await new Promise((r) => setTimeout(r, interval));
    for (const build of await listFinishedBuilds(deps.db, [...pending])) {
      pending.delete(build.id);
      if (build.status === 'succeeded') progress.done++;
      else progress.failed++;
    }
    onProgress({ ...progress });
  }
  return { ...progress, ms: performance.now() - started };
}

/** The sites a rebuild covers: every live site, or the named slugs (reporting the unknown ones). */
export async function findSiteIdsForRebuild(db: TBuildsDeps['db'], target: { all: true } | { slugs: string[] }): Promise<{ siteIds: string[]; missing: string[] }> {
  if ('all' in target) return { siteIds: await listSiteIds(db), missing: [] };
  const siteIds: string[] = [];
  const missing: string[] = [];
  for (const slug of target.slugs) {
    const site = await findSiteBySlug(db, slug);
    if (site) siteIds.push(site.id);
    else missing.push(slug);
  }
  return { siteIds, missing };
}
