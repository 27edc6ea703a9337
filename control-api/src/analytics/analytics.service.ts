/**
 * Views, downloads and the creator's analytics panel (companion spec: analytics, call 3).
 * Views come from the page's beacon, deduplicated per visitor per window; downloads are counted
 * by the server when a download completes, so a cancelled transfer never counts (Firefox Send #734).
 */
import type { z } from 'zod';
import {
  RECENT_ACTIVITY_LIMIT,
  ZActivityTypeSchema,
  type TActivity,
  type TAnalytics,
  type TDailyPoint,
  type ZAnalyticsQuerySchema,
  type ZProductEventRequestSchema,
} from '@dropsite/shared';
import type { TAnalyticsDeps } from './analytics.deps.ts';
import type { TClaim } from '../access/limiter-store.ts';
import { newId, newTimeOrderedId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { findSiteById, parseSiteSettings, siteExists } from '../site-records/site-records.repository.ts';
import { isSiteOwner, type TPrincipal } from '../access/principal.ts';
import { requireWorkspacePermission } from '../workspaces/workspace-access.ts';
import { countEngagement, engagementEventOf, listRecentEngagement } from '../engagement/engagement.repository.ts';
import { findSiteFile } from '../engagement/engagement.service.ts';
import { describeEngagement, toOneLine } from '../notifications/notification-messages.ts';
import { countTraffic, dayOf, insertProductEvent, listDailyTraffic, listRecentActivity } from './analytics.repository.ts';
import { DAY_MS } from '../clock.ts';

type TDeps = Pick<TAnalyticsDeps, 'db' | 'config' | 'clock' | 'log' | 'keys' | 'caches' | 'analytics'>;

/** Records a view of the site (fileId null) or of one of its files unless this visitor's was counted within the window. */
export async function recordView(
  deps: TDeps & Pick<TAnalyticsDeps, 'limits'>,
  view: { siteId: string; fileId: string | null; fileName: string | null; visitorId: string },
): Promise<boolean> {
  const now = deps.clock.now();
  const windowMs = deps.config.viewDedupeMinutes * 60_000;
  const ledger = deps.caches.views;
  let claim: TClaim | undefined;
  if (windowMs > 0) {
    const since = now - windowMs;
    // The ledger answers for views this runtime counted (on SQLite, for every view); otherwise the database is asked.
    const known = ledger.countedSince(view, since);
    if (known === true) return false;
    if (known === undefined) {
      if (await deps.analytics.hasViewSince({ siteId: view.siteId, fileId: view.fileId, visitorId: view.visitorId, since })) return false;
      // Another API process may be counting this very view, its row not yet written (the batch lands a
      // moment later): with Redis, the first process to claim it for the window counts it. (In memory
      // every claim is granted: this process is the only one counting.)
      claim = await deps.limits.store.claim('view', `${view.siteId}:${view.fileId ?? ''}:${view.visitorId}`, windowMs);
      if (!claim.claimed) return false;
      // Checked again without a pause before noting it: two beacons of one visitor at once count once.
      if (ledger.countedSince(view, since) === true) return false;
    }
  }
  ledger.note(view, now);
  // Answered once taken: the batcher writes it with the views around it a moment later (a beacon waiting
  // for its own commit would make every batch a few rows). A view that cannot be stored (its site
  // deleted meanwhile) is not counted, and the next beacon may count it.
  void deps.analytics
    .insert({
      id: newTimeOrderedId(now),
      siteId: view.siteId,
      fileId: view.fileId,
      visitorId: view.visitorId,
      type: 'view',
      details: view.fileName === null ? 'Viewed the site' : `Viewed "${toOneLine(view.fileName, 120)}"`,
      now,
    })
    .catch((err: unknown) => {
      ledger.withdraw(view, now);
      void claim?.release();
      deps.log.warn({ err, projectId: view.siteId }, 'could not count a view');
    });
  return true;
}

export interface TDownload {
  siteId: string;
  /** The file, or null for a ZIP of several. */
  fileId: string | null;
  fileName: string | null;
  /** What a ZIP held when not every file of the site, e.g. '3 files'; default 'all files'. */
  zipLabel?: string;
}

/**
 * Counts one completed download of a file (or, with fileId null, of the ZIP of all files) when the
 * site's analytics are on. Called after the response finished; never throws (a lost count must
 * not fail a download that already succeeded).
 */
export async function recordDownload(deps: TDeps, visitorId: string | undefined, download: TDownload): Promise<void> {
  try {
    const site = await findSiteById(deps.db, download.siteId);
    if (!site || !parseSiteSettings(site.settings).enableAnalytics) return;
    const now = deps.clock.now();
    await deps.analytics.insert({
      id: newTimeOrderedId(now),
      siteId: download.siteId,
      fileId: download.fileId,
      visitorId: visitorId ?? null,
      type: 'download',
      details: download.fileName === null ? `Downloaded ${download.zipLabel ?? 'all files'} (ZIP)` : `Downloaded "${toOneLine(download.fileName, 120)}"`,
      now,
    });
  } catch (err) {
    deps.log.warn({ err, projectId: download.siteId }, 'could not count a download');
  }
}

/**
 * The newest activities of a site or file (after `since` and up to `until`, when given), newest first: views and
 * downloads from the event log, engagement from its own rows, merged.
 */
export async function listActivity(
  deps: TDeps,
  scope: { siteId: string; fileId?: string | undefined },
  options: { since?: number | undefined; until?: number | undefined; limit: number },
): Promise<Array<TActivity & { at: number }>> {
  const [events, engagement] = await Promise.all([
    listRecentActivity(deps.db, { ...scope, since: options.since, until: options.until }, options.limit),
    listRecentEngagement(deps.db, { siteIds: [scope.siteId], fileId: scope.fileId, since: options.since, until: options.until }, options.limit),
  ]);
  const merged: Array<TActivity & { at: number }> = [];
  for (const row of events) {
    const type = ZActivityTypeSchema.safeParse(row.type);
    if (type.success) merged.push({ type: type.data, details: row.details, timestamp: new Date(row.created_at).toISOString(), fileId: row.file_id, at: row.created_at });
  }
  for (const row of engagement) {
    const details = describeEngagement(engagementEventOf(row));
    merged.push({ type: row.kind, details, timestamp: new Date(row.at).toISOString(), fileId: row.fileId, at: row.at });
  }
  // Stable: for equal times the engagement (written after the view that led to it) comes first.
  return merged.sort((a, b) => b.at - a.at).slice(0, options.limit);
}

export async function getAnalytics(deps: TDeps, scope: { siteId: string; fileId?: string | undefined }, detailed: boolean): Promise<TAnalytics> {
  // The views and downloads this process took are written first: its answer counts them all.
  await deps.analytics.flush();
  const [traffic, engagement, recentRows] = await Promise.all([
    countTraffic(deps.db, scope),
    countEngagement(deps.db, scope),
    detailed ? listActivity(deps, scope, { limit: RECENT_ACTIVITY_LIMIT }) : Promise.resolve([]),
  ]);
  const recentActivity = recentRows.map(({ at: _at, ...activity }) => activity);
  return {
    views: traffic.views,
    downloads: traffic.downloads,
    favorites: engagement.favorites,
    comments: engagement.comments,
    approvals: engagement.approvals,
    uniqueVisitors: traffic.uniqueVisitors,
    recentActivity,
  };
}

/**
 * Views, distinct visitors and downloads of a site or file on each of the last `days` UTC days
 * (today last, days without traffic as zeros), and of the range as a whole; from the rollups.
 */
export async function getDailyAnalytics(
  deps: TDeps,
  scope: { siteId: string; fileId?: string | undefined },
  days: number,
): Promise<{ days: TDailyPoint[]; totals: { views: number; uniqueVisitors: number; downloads: number } }> {
  const today = dayOf(deps.clock.now());
  const fromDay = today - days + 1;
  await deps.analytics.flush();
  const [rows, totals] = await Promise.all([listDailyTraffic(deps.db, scope, fromDay, today), countTraffic(deps.db, { ...scope, sinceDay: fromDay })]);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const points: TDailyPoint[] = [];
  for (let day = fromDay; day <= today; day++) {
    const row = byDay.get(day);
    points.push({
      date: new Date(day * DAY_MS).toISOString().slice(0, 10),
      views: row?.views ?? 0,
      uniqueVisitors: row?.uniqueVisitors ?? 0,
      downloads: row?.downloads ?? 0,
    });
  }
  return { days: points, totals: { views: totals.views, uniqueVisitors: totals.uniqueVisitors, downloads: totals.downloads } };
}

/** A product event of the dashboard or a site (the email modal's), under the caller's proven session, never one the payload names. */
export async function recordProductEvent(deps: TDeps, principal: TPrincipal, input: z.output<typeof ZProductEventRequestSchema>): Promise<void> {
  const session = await principal.anonymousSession();
  const siteId = input.projectId && (await siteExists(deps.db, input.projectId)) ? input.projectId : null;
  await insertProductEvent(deps.db, {
    id: newId(),
    name: input.event,
    trigger: input.trigger ?? null,
    siteId,
    visitorId: null,
    anonymousSessionId: session?.id ?? null,
    now: deps.clock.now(),
  });
}

/** The analytics panel of a site (or one of its files) for its creator; someone else's site answers exactly like a missing one. */
export async function getOwnAnalytics(deps: TDeps, principal: TPrincipal, query: z.output<typeof ZAnalyticsQuerySchema>): Promise<TAnalytics> {
  const site = await findSiteById(deps.db, query.projectId);
  if (!site) throw new AppError('not_found', 'Site not found');
  if (site.workspace_id !== null) {
    // A workspace's site: any member may read its analytics; anyone else (signed out too) finds nothing.
    if (!(await principal.signedInCreator())) throw new AppError('not_found', 'Site not found');
    await requireWorkspacePermission(deps.db, principal, site.workspace_id, 'sites.read', 'Site not found');
  } else if (!(await isSiteOwner(principal, site))) throw new AppError('not_found', 'Site not found');
  if (query.fileId) await findSiteFile(deps, site, query.fileId);
  return getAnalytics(deps, { siteId: site.id, fileId: query.fileId }, query.detailed === 'true');
}
