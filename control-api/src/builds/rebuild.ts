/** Re-renders sites through the queue (ops CLI and benchmarks): a new version per project, then waits. */
import type { TAppDeps } from '../deps.ts';
import { bumpProjectVersion, findProjectBySlug, listProjectIds } from '../projects/projects.repository.ts';
import { countFinishedBuilds } from './builds.repository.ts';
import { enqueueProjectBuild } from './builds.service.ts';

export interface TRebuildProgress {
  total: number;
  done: number;
  failed: number;
}

export interface TRebuildResult extends TRebuildProgress {
  ms: number;
}

export async function rebuildProjects(deps: TAppDeps, projectIds: string[], onProgress: (p: TRebuildProgress) => void = () => {}, pollMs = 100): Promise<TRebuildResult> {
  const started = performance.now();
  const buildIds: string[] = [];
  for (const projectId of projectIds) {
    const version = await bumpProjectVersion(deps.db, projectId, deps.clock.now());
    buildIds.push(await enqueueProjectBuild(deps, projectId, version));
  }
  let progress: TRebuildProgress = { total: buildIds.length, done: 0, failed: 0 };
  onProgress(progress);
  while (progress.done + progress.failed < progress.total) {
    await new Promise((r) => setTimeout(r, pollMs));
    const counts = await countFinishedBuilds(deps.db, buildIds);
    progress = { total: buildIds.length, done: counts.succeeded, failed: counts.failed };
    onProgress(progress);
  }
  return { ...progress, ms: performance.now() - started };
}

/** The projects a rebuild covers: every live site, or the named slugs (reporting the unknown ones). */
export async function findProjectIdsForRebuild(db: TAppDeps['db'], target: { all: true } | { slugs: string[] }): Promise<{ projectIds: string[]; missing: string[] }> {
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
