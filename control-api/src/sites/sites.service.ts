/** A site by its slug as the principal may see it, and how far its build is. */
import type { TAppDeps } from '../deps.ts';
import type { TProjectRow } from '../db/tables.ts';
import type { TPrincipal } from '../access/principal.ts';
import { findProjectBySlug, findTakenDownProjectBySlug } from '../projects/projects.repository.ts';
import { findLatestBuildForProject } from '../builds/builds.repository.ts';
import { resolveSiteAccess, type TSiteAccess } from './site-access.ts';

type TDeps = Pick<TAppDeps, 'db' | 'clock' | 'keys'> & Partial<Pick<TAppDeps, 'caches'>>;

/**
 * The live site of this slug (null when there is none) and the access the principal has to it. With
 * the runtime's caches the row may be the read cache's (on SQLite): read-only.
 */
export async function openSiteBySlug(deps: TDeps, principal: TPrincipal, slug: string): Promise<{ project: TProjectRow | null; access: TSiteAccess }> {
  const project = await findProjectBySlug(deps.db, slug, deps.caches);
  return { project, access: resolveSiteAccess(deps, principal, project) };
}

/** Progress and stage of the site's latest build, for the holding page and the status call. */
export async function buildProgressOf(deps: TDeps, projectId: string): Promise<{ progress: number; stage: string } | null> {
  const build = await findLatestBuildForProject(deps.db, projectId);
  return build ? { progress: build.progress, stage: build.stage } : null;
}

/** Whether an operator took the site of this slug down (it is then answered 451, not 404). */
export async function isTakenDown(deps: Pick<TAppDeps, 'db'>, slug: string): Promise<boolean> {
  return (await findTakenDownProjectBySlug(deps.db, slug)) !== null;
}
