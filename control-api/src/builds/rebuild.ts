/** Re-renders sites through the queue (ops CLI and benchmarks): a new version per project, then waits. */
import type { TBuildsDeps } from './builds.deps.ts';
import { bumpProjectVersion, findProjectBySlug, listProjectIds } from '../site-records/site-records.repository.ts';
import { listFinishedBuilds } from './builds.repository.ts';
import { enqueueProjectBuild } from './builds.service.ts';

/** Projects being queued at once (version bump, build row, job). */
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
 * Bumps each project's version and queues its build, 16 at a time (with BullMQ each is a round trip
 * to Redis, and one by one they held back the builders); answers the build ids. An aborted signal
 * stops the lanes at their next project.
 */
export async function enqueueRebuilds(deps: TBuildsDeps, projectIds: readonly string[], signal?: AbortSignal): Promise<string[]> {
  const buildIds: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < projectIds.length && !signal?.aborted) {
      const projectId = projectIds[next++]!;
      const version = await bumpProjectVersion(deps.db, projectId, deps.clock.now());
      buildIds.push(await enqueueProjectBuild(deps, projectId, version));
    }
  };
  await Promise.all(Array.from({ length: Math.min(ENQUEUE_LANES, projectIds.length) }, lane));
  return buildIds;
}

/**
 * Queues a rebuild of each project (enqueueRebuilds) and waits for all of them, reporting progress after
 * each look at the rows. Each look asks only about the builds not yet finished, and a large rebuild
 * looks less often (every `pollMs`, up to a second for 10,000 sites), so waiting costs the database
 * little next to the builds themselves.
 */
export async function rebuildProjects(deps: TBuildsDeps, projectIds: string[], onProgress: (p: TRebuildProgress) => void = () => {}, pollMs?: number): Promise<TRebuildResult> {
  const started = performance.now();
  const buildIds = await enqueueRebuilds(deps, projectIds);
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

/** The projects a rebuild covers: every live site, or the named slugs (reporting the unknown ones). */
export async function findProjectIdsForRebuild(db: TBuildsDeps['db'], target: { all: true } | { slugs: string[] }): Promise<{ projectIds: string[]; missing: string[] }> {
  if ('all' in target) return { projectIds: await listProjectIds(db), missing: [] };
  const projectIds: string[] = [];
  const missing: string[] = [];
  for (const slug of target.slugs) {
    const project = await findProjectBySlug(db, slug);
    if (project) projectIds.push(project.id);
    else missing.push(slug);
  }
  return { projectIds, missing };
}
