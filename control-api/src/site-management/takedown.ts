/**
 * An operator's takedown (npm run takedown / restore-site): the site becomes unreachable at once
 * (its page answers 451 with a short notice, its files, engagement and status 404), and when and why
 * are recorded on the site. Its stored bytes stay, so a mistaken takedown can be undone.
 */
import type { TAppDeps } from '../deps.ts';
import { restoreTakenDownProject, takeDownProject } from '../projects/projects.repository.ts';

type TDeps = Pick<TAppDeps, 'db' | 'clock' | 'log'>;

const TAKEDOWN_REASON_MAX_LENGTH = 1000;

export async function takeDownSite(deps: TDeps, slug: string, reason: string): Promise<{ id: string } | null> {
  const text = reason.trim().slice(0, TAKEDOWN_REASON_MAX_LENGTH);
  if (text === '') throw new Error('A takedown needs a reason');
  const taken = await takeDownProject(deps.db, slug, { now: deps.clock.now(), reason: text });
  if (taken) deps.log.warn({ projectId: taken.id, slug, reason: text }, 'site taken down');
  return taken;
}

export async function restoreSite(deps: TDeps, slug: string): Promise<{ id: string } | null> {
  const restored = await restoreTakenDownProject(deps.db, slug, deps.clock.now());
  if (restored) deps.log.warn({ projectId: restored.id, slug }, 'taken-down site restored');
  return restored;
}
