/**
 * Views, downloads and the creator's analytics panel (companion spec: analytics, call 3).
 * Views come from the page's beacon, deduplicated per visitor per window; downloads are counted
 * by the server when a download completes, so a cancelled transfer never counts (Firefox Send #734).
 */
import type { Request, Response } from 'express';
import { RECENT_ACTIVITY_LIMIT, ZActivityTypeSchema, type TActivity, type TAnalytics } from '@dropsite/shared';
import type { TAppDeps } from '../deps.ts';
import { newId } from '../db/ids.ts';
import { findProjectById, parseSiteSettings } from '../projects/projects.repository.ts';
import { countEngagement, listRecentEngagement } from '../engagement/engagement.repository.ts';
import { describeEngagement, toOneLine } from '../notifications/notification-messages.ts';
import { readVisitorId } from '../visitors/visitor-identity.ts';
import { countTraffic, hasViewSince, listRecentActivity } from './analytics.repository.ts';

type TDeps = Pick<TAppDeps, 'db' | 'config' | 'clock' | 'log' | 'keys' | 'caches' | 'analytics'>;

/** Views counted lately (`deps.caches.views`) are forgotten past this many. */
const COUNTED_VIEWS_KEPT = 50_000;

/** Records a view of the site (fileId null) or of one of its files unless this visitor's was counted within the window. */
export async function recordView(deps: TDeps, view: { projectId: string; fileId: string | null; fileName: string | null; visitorId: string }): Promise<boolean> {
  const now = deps.clock.now();
  const windowMs = deps.config.viewDedupeMinutes * 60_000;
  // Views this runtime counted lately, by site, file and visitor: a repeat within the window needs no query.
  const counted = deps.caches.views;
  const key = `${view.projectId}\u0000${view.fileId ?? ''}\u0000${view.visitorId}`;
  const isCountedHere = () => windowMs > 0 && (counted.get(key) ?? -Infinity) > now - windowMs;
  if (isCountedHere()) return false;
  if (windowMs > 0 && (await hasViewSince(deps.db, { projectId: view.projectId, fileId: view.fileId, visitorId: view.visitorId, since: now - windowMs }))) {
    return false;
  }
  // Checked again without a pause before claiming it: two beacons of one visitor at once count once.
  if (isCountedHere()) return false;
  if (counted.size >= COUNTED_VIEWS_KEPT) counted.clear();
  counted.set(key, now);
  try {
    await deps.analytics.insert({
      id: newId(),
      projectId: view.projectId,
      fileId: view.fileId,
      visitorId: view.visitorId,
      type: 'view',
      details: view.fileName === null ? 'Viewed the site' : `Viewed "${toOneLine(view.fileName, 120)}"`,
      now,
    });
  } catch (error) {
    if (counted.get(key) === now) counted.delete(key); // not recorded: the next beacon may count it
    throw error;
  }
  return true;
}

export interface TDownload {
  projectId: string;
  /** The file, or null for a ZIP of several. */
  fileId: string | null;
  fileName: string | null;
  /** What a ZIP held, e.g. '3 selected files'; default 'all files'. */
  zipLabel?: string;
}

/**
 * Counts one completed download of a file (or, with fileId null, of the ZIP of all files) when the
 * site's analytics are on. Called after the response finished; never throws (a lost count must
 * not fail a download that already succeeded).
 */
export async function recordDownload(deps: TDeps, req: Request, download: TDownload): Promise<void> {
  try {
    const project = await findProjectById(deps.db, download.projectId);
    if (!project || !parseSiteSettings(project.settings).enableAnalytics) return;
    await deps.analytics.insert({
      id: newId(),
      projectId: download.projectId,
      fileId: download.fileId,
      visitorId: readVisitorId(deps, req) ?? null,
      type: 'download',
      details: download.fileName === null ? `Downloaded ${download.zipLabel ?? 'all files'} (ZIP)` : `Downloaded "${toOneLine(download.fileName, 120)}"`,
      now: deps.clock.now(),
    });
  } catch (err) {
    deps.log.warn({ err, projectId: download.projectId }, 'could not count a download');
  }
}

/**
 * Whether a finished file response is a completed download: the whole file (200), or a range
 * reaching its last byte (206 with `Content-Range: bytes a-b/size`, b = size - 1), so a resumed
 * download counts once, when it completes. Aborted transfers never finish.
 */
export function isCompletedDownload(response: Pick<Response, 'statusCode' | 'writableFinished' | 'getHeader'>): boolean {
  if (!response.writableFinished) return false;
  if (response.statusCode === 200) return true;
  if (response.statusCode !== 206) return false;
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(response.getHeader('content-range') ?? ''));
  return match !== null && Number(match[2]) === Number(match[3]) - 1;
}

/** Counts the download of a file when this GET response completes (see isCompletedDownload). */
export function countDownloadWhenComplete(deps: TDeps, req: Request, res: Response, download: TDownload): void {
  if (req.method !== 'GET') return;
  res.once('finish', () => {
    if (isCompletedDownload(res)) void recordDownload(deps, req, download);
  });
}

/** The newest activities: views and downloads from the event log, engagement from its own rows, merged. */
async function listRecentActivityOf(deps: TDeps, scope: { projectId: string; fileId?: string | undefined }): Promise<Array<TActivity & { at: number }>> {
  const [events, engagement] = await Promise.all([
    listRecentActivity(deps.db, scope, RECENT_ACTIVITY_LIMIT),
    listRecentEngagement(deps.db, { projectIds: [scope.projectId], fileId: scope.fileId }, RECENT_ACTIVITY_LIMIT),
  ]);
  const merged: Array<TActivity & { at: number }> = [];
  for (const row of events) {
    const type = ZActivityTypeSchema.safeParse(row.type);
    if (type.success) merged.push({ type: type.data, details: row.details, timestamp: new Date(row.created_at).toISOString(), fileId: row.file_id, at: row.created_at });
  }
  for (const row of engagement) {
    const details = describeEngagement({
      type: row.kind,
      projectId: row.projectId,
      fileId: row.fileId,
      fileName: row.fileName,
      visitorName: row.userName,
      ...(row.text !== null ? { text: row.text } : {}),
      ...(row.status !== null ? { status: row.status } : {}),
    });
    merged.push({ type: row.kind, details, timestamp: new Date(row.at).toISOString(), fileId: row.fileId, at: row.at });
  }
  // Stable: for equal times the engagement (written after the view that led to it) comes first.
  return merged.sort((a, b) => b.at - a.at).slice(0, RECENT_ACTIVITY_LIMIT);
}

export async function getAnalytics(deps: TDeps, scope: { projectId: string; fileId?: string | undefined }, detailed: boolean): Promise<TAnalytics> {
  const [traffic, engagement, recentRows] = await Promise.all([
    countTraffic(deps.db, scope),
    countEngagement(deps.db, scope),
    detailed ? listRecentActivityOf(deps, scope) : Promise.resolve([]),
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
