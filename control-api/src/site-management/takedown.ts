/**
 * An operator's takedown (npm run takedown / restore-site): the site becomes unreachable at once
 * (its page answers 451 with a short notice, its files, engagement and status 404), and when and why
 * are recorded on the site, and its public copy leaves the edge first. Its stored bytes stay, so a
 * mistaken takedown can be undone (a restored public site goes back to the edge).
 */
import type { TSiteManagementDeps } from './site-management.deps.ts';
import { restoreTakenDownSite, markSiteTakenDown } from '../site-records/site-records.repository.ts';
import { changeSiteAccess, syncPublicPage } from '../edge/public-page.ts';

type TDeps = Pick<TSiteManagementDeps, 'db' | 'clock' | 'log' | 'storage' | 'config'>;

const TAKEDOWN_REASON_MAX_LENGTH = 1000;

export async function takeDownSite(deps: TDeps, slug: string, reason: string): Promise<{ id: string } | null> {
  const text = reason.trim().slice(0, TAKEDOWN_REASON_MAX_LENGTH);
  if (text === '') throw new Error('A takedown needs a reason');
  // Off the edge before the command answers (the copy is removed even when no live site holds the slug).
  const taken = await changeSiteAccess(deps, [slug], () => markSiteTakenDown(deps.db, slug, { now: deps.clock.now(), reason: text }));
  if (taken) deps.log.warn({ projectId: taken.id, slug, reason: text }, 'site taken down');
  return taken;
}

export async function restoreSite(deps: TDeps, slug: string): Promise<{ id: string } | null> {
  const restored = await restoreTakenDownSite(deps.db, slug, deps.clock.now());
  if (restored) {
    deps.log.warn({ projectId: restored.id, slug }, 'taken-down site restored');
    // Its stored page goes back to the edge when the site is public (its bytes were kept).
    await syncPublicPage(deps, restored.id);
  }
  return restored;
}
