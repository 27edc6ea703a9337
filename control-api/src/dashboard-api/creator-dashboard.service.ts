/**
 * The signed-in creator's dashboard (spec 'pages-dashboard-billing' 2, 3, 7.2-7.4): their sites,
 * a site's details, its daily chart, live activity, the engagement export and replies to comments.
 * Every call first proves the caller is signed in (401) and owns the site; another creator's site,
 * a deleted one and an unknown id all answer the same 404, so nothing tells them apart.
 */
import { csvCell } from '../http/csv-cell.ts';
import {
  ACTIVITY_POLL_LIMIT,
  DETAILS_COMMENT_THREADS_PER_FILE,
  DETAILS_ENTRIES_PER_FILE,
  FEATURE_DISABLED_MESSAGE,
  isValidId,
  NOTIFICATIONS_KEPT,
  type TActivity,
  type TApprovalStatus,
  type TCreatorProject,
  type TCreatorPublic,
  type TDetailsComment,
  type TDetailsCommentReply,
  type TEngagementUpdate,
  type TProjectDetails,
  type TWorkspacePermission,
} from '@dropsite/shared';
import type { TDashboardApiDeps } from './dashboard-api.deps.ts';
import type { TSiteRow } from '../db/tables.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { requireSignedInCreator, type TPrincipal, type TSignedInCreator } from '../access/principal.ts';
import { requireWorkspacePermission } from '../workspaces/workspace-access.ts';
import { currentWorkspaceIdOf } from '../workspaces/current-workspace.ts';
import { checkSiteAccess } from '../sites/site-access.ts';
import { findCreatorById } from '../accounts/accounts.repository.ts';
import { findFileOfSiteById, findSiteById, listFilesBySite, parseSiteSettings } from '../site-records/site-records.repository.ts';
import { engagementSwitchesOf, siteSummaryOf } from '../site-records/site-summary.ts';
import { ownerThumbnailUrlOf, thumbnailUrlOf } from '../site-records/file-thumbnail.ts';
import { fileBasicsOf } from '../site-records/stored-files.ts';
import { derivedMetadataOf } from '../files/files.service.ts';
import { findFileOfSite, insertComment, listRecentEngagement } from '../engagement/engagement.repository.ts';
import { toEngagementUpdates } from '../creators/anonymous.service.ts';
import { assertCommentText } from '../engagement/engagement.service.ts';
import { countTraffic, countTrafficByScope, listDailyTrafficOfSite, SITE_SCOPE } from '../analytics/analytics.repository.ts';
import { getDailyAnalytics, listActivity } from '../analytics/analytics.service.ts';
import {
  countEngagementByFile,
  findCommentOfSite,
  listCommentThreadsBefore,
  listEngagementForExport,
  listNewestApprovals,
  listNewestCommentThreads,
  listNewestFavorites,
  listSitesOfWorkspace,
  namesOfCreators,
  listSiteTitlesOfWorkspace,
  type TCommentEntryRow,
} from './creator-dashboard.repository.ts';

type TDeps = Pick<TDashboardApiDeps, 'db' | 'config' | 'clock' | 'log' | 'keys' | 'caches' | 'analytics'>;

export const SITE_NOT_FOUND = 'Project not found';
/** The name a creator's reply shows when the site names no author. */
export const CREATOR_REPLY_NAME = 'Creator';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A (not deleted) site of a workspace the signed-in caller is a member of, in a role the permission
 * map allows `permission`: 401 signed out, 404 for a site outside the caller's workspaces (the same
 * as a missing one), 403 for a role without the permission.
 */
export async function openOwnSite(
  deps: Pick<TDashboardApiDeps, 'db'>,
  principal: TPrincipal,
  siteId: string,
  permission: TWorkspacePermission,
): Promise<{ creator: TSignedInCreator; site: TSiteRow }> {
  const creator = await requireSignedInCreator(principal);
  const site = await findSiteById(deps.db, siteId);
  // The anonymous creator's sites are in no workspace until claimed, whatever cookie came along.
  if (!site || site.workspace_id === null) throw new AppError('not_found', SITE_NOT_FOUND);
  await requireWorkspacePermission(deps.db, principal, site.workspace_id, permission, SITE_NOT_FOUND);
  return { creator, site };
}

/** A file of the caller's site, or 404. */
export async function openOwnFile(deps: Pick<TDashboardApiDeps, 'db'>, site: TSiteRow, fileId: string): Promise<void> {
  if (!(await findFileOfSite(deps.db, site.id, fileId))) throw new AppError('not_found', 'File not found');
}

/**
 * The 300 px thumbnail of a file on our origin, when one was derived: the public file route's while
 * the site is open to anyone, else the owner's own route (a locked or expired site's covers are its
 * owner's to see, never public).
 */
export function ownersThumbnailOf(
  deps: Pick<TDashboardApiDeps, 'clock'>,
  site: Pick<TSiteRow, 'id' | 'deleted_at' | 'expires_at' | 'password_hash'>,
  file: { id: string; metadata: string; version: number | null },
): string | null {
  return checkSiteAccess(site, deps.clock) === 'open' ? thumbnailUrlOf(file) : ownerThumbnailUrlOf(site.id, file);
}

/** The thumbnail of a file of the owner's site, whatever the site's password or expiry (its files are still kept). */
export async function openOwnThumbnail(deps: Pick<TDashboardApiDeps, 'db'>, site: TSiteRow, fileId: string): Promise<{ key: string; contentType: string; etag: string }> {
  const file = isValidId(fileId) ? await findFileOfSiteById(deps.db, site.id, fileId) : null;
  const thumbnail = file ? derivedMetadataOf(file.metadata)?.thumbnail : undefined;
  if (!file || !thumbnail) throw new AppError('not_found', 'No thumbnail for this file');
  return { key: thumbnail.key, contentType: thumbnail.contentType, etag: `"${file.sha256}-t300"` };
}

async function creatorPublicOf(deps: Pick<TDashboardApiDeps, 'db'>, creator: TSignedInCreator): Promise<TCreatorPublic> {
  const row = await findCreatorById(deps.db, creator.id);
  return {
    id: creator.id,
    email: creator.email,
    name: creator.name,
    avatarUrl: creator.avatarUrl,
    emailVerified: creator.emailVerified,
    createdAt: iso(row?.created_at ?? 0),
  };
}

/**
 * The caller's sites, newest first, with the four counts, downloads and files of each (spec 7.2).
 * `creatorId`, when the spec's path names one, must be the caller's own: any other is 404.
 */
export async function listOwnSites(deps: TDeps, principal: TPrincipal, creatorId?: string): Promise<{ creator: TCreatorPublic; projects: TCreatorProject[] }> {
  const creator = await requireSignedInCreator(principal);
  if (creatorId !== undefined && creatorId !== creator.id) throw new AppError('not_found', 'Creator not found');
  // The views and downloads this process took are written first: the counts include them.
  await deps.analytics.flush();
  const workspaceId = (await requireWorkspacePermission(deps.db, principal, await currentWorkspaceIdOf(deps.db, creator), 'sites.read')).workspaceId;
  const [sites, creatorPublic] = await Promise.all([listSitesOfWorkspace(deps.db, workspaceId), creatorPublicOf(deps, creator)]);
  const publishers = await namesOfCreators(deps.db, [...new Set(sites.flatMap((p) => (p.owner_creator_id === null ? [] : [p.owner_creator_id])))]);
  // Most of a creator's sites share a few settings texts: each is parsed once per answer.
  const parsedSettings = new Map<string, ReturnType<typeof parseSiteSettings>>();
  const settingsOf = (json: string) => parsedSettings.get(json) ?? parsedSettings.set(json, parseSiteSettings(json)).get(json)!;
  return {
    creator: creatorPublic,
    projects: sites.map((p) => ({
      ...siteSummaryOf(deps.config.publicUrl, p),
      template: p.template,
      thumbnail_url:
        p.first_file_id !== null && p.first_file_metadata !== null
          ? ownersThumbnailOf(deps, p, { id: p.first_file_id, metadata: p.first_file_metadata, version: p.first_file_version })
          : null,
      settings: engagementSwitchesOf(settingsOf(p.settings)),
      favorites_count: p.favorites_count,
      comments_count: p.comments_count,
      approvals_count: p.approvals_count,
      approved_count: p.approved_count,
      changes_requested_count: p.changes_requested_count,
      unreviewed_files_count: Math.max(0, p.file_count - p.decided_files_count),
      views_count: p.views_count,
      downloads_count: p.downloads_count,
      file_count: p.file_count,
      publishedBy: p.owner_creator_id !== null && publishers.has(p.owner_creator_id) ? { name: publishers.get(p.owner_creator_id)! } : null,
    })),
  };
}

function toDetailsReply(row: TCommentEntryRow): TDetailsCommentReply {
  return {
    id: row.id,
    userName: row.user_name,
    userEmail: row.user_email ?? '',
    commentText: row.body,
    createdAt: iso(row.created_at),
    isCreator: row.creator_id !== null,
    replies: [],
  };
}

/**
 * A site's details (spec 3 'Project details'): totals over everything, and per file the newest
 * DETAILS_ENTRIES_PER_FILE favourites and approvals and the newest DETAILS_COMMENT_THREADS_PER_FILE
 * comment threads with all their replies, beside the file's own totals.
 */
export async function getSiteDetails(deps: TDeps, site: TSiteRow): Promise<TProjectDetails> {
  const files = await listFilesBySite(deps.db, site.id);
  const fileIds = files.map((f) => f.id);
  await deps.analytics.flush();
  const [counts, favorites, approvals, threads, trafficByScope, siteTraffic] = await Promise.all([
    countEngagementByFile(deps.db, fileIds),
    listNewestFavorites(deps.db, site.id, DETAILS_ENTRIES_PER_FILE),
    listNewestApprovals(deps.db, site.id, DETAILS_ENTRIES_PER_FILE),
    listNewestCommentThreads(deps.db, fileIds, DETAILS_COMMENT_THREADS_PER_FILE),
    countTrafficByScope(deps.db, site.id),
    countTraffic(deps.db, { siteId: site.id }),
  ]);
  const group = <T extends { file_id: string }>(rows: readonly T[]) => {
    const byFile = new Map<string, T[]>();
    for (const row of rows) byFile.set(row.file_id, [...(byFile.get(row.file_id) ?? []), row]);
    return byFile;
  };
  const favoritesByFile = group(favorites);
  const approvalsByFile = group(approvals);
  const threadsByFile = toDetailsThreads(threads.roots, threads.replies);

  // Pending is files nobody has decided on: the sum of the files' own (0 or 1).
  const totals = { favorites: 0, comments: 0, approvals: { approved: 0, rejected: 0, pending: 0 } };
  // A file's engagement goes with the file (ON DELETE CASCADE): the site's totals are its files'.
  for (const c of counts.values()) {
    totals.favorites += c.favorites;
    totals.comments += c.comments;
    totals.approvals.approved += c.approvals.approved;
    totals.approvals.rejected += c.approvals.rejected;
    totals.approvals.pending += c.approvals.pending;
  }
  return {
    id: site.id,
    title: site.title,
    description: site.description,
    created_at: iso(site.created_at),
    slug: site.slug,
    url: `${deps.config.publicUrl}/${site.slug}`,
    totals: {
      totalFiles: files.length,
      uniqueUsers: siteTraffic.uniqueVisitors,
      totalFavorites: totals.favorites,
      totalComments: totals.comments,
      totalViews: trafficByScope.get(SITE_SCOPE)?.views ?? 0,
      totalDownloads: trafficByScope.get(SITE_SCOPE)?.downloads ?? 0,
      totalApprovals: totals.approvals,
    },
    files: files.map((file) => {
      const fileCounts = counts.get(file.id) ?? { favorites: 0, comments: 0, approvals: { approved: 0, rejected: 0, pending: 1 } };
      return {
        ...fileBasicsOf(file),
        uploadedAt: iso(file.created_at),
        thumbnailUrl: ownersThumbnailOf(deps, site, file),
        group: file.group_name,
        favorites: (favoritesByFile.get(file.id) ?? []).map((f) => ({ id: f.id, userName: f.user_name, userEmail: f.user_email ?? '', createdAt: iso(f.created_at) })),
        comments: threadsByFile.get(file.id) ?? [],
        approvals: (approvalsByFile.get(file.id) ?? []).map((a) => ({
          id: a.id,
          status: a.status,
          userName: a.user_name,
          userEmail: a.user_email ?? '',
          createdAt: iso(a.updated_at),
        })),
        totals: fileCounts,
        analytics: { views: trafficByScope.get(file.id)?.views ?? 0, downloads: trafficByScope.get(file.id)?.downloads ?? 0 },
      };
    }),
  };
}

/** Threads as the dashboard shows them, each with its replies. */
function toDetailsThreads(roots: readonly TCommentEntryRow[], replies: readonly TCommentEntryRow[]): Map<string, TDetailsComment[]> {
  const repliesByRoot = new Map<string, TDetailsCommentReply[]>();
  for (const reply of replies) repliesByRoot.set(reply.parent_id!, [...(repliesByRoot.get(reply.parent_id!) ?? []), toDetailsReply(reply)]);
  const threadsByFile = new Map<string, TDetailsComment[]>();
  for (const root of roots) threadsByFile.set(root.file_id, [...(threadsByFile.get(root.file_id) ?? []), { ...toDetailsReply(root), replies: repliesByRoot.get(root.id) ?? [] }]);
  return threadsByFile;
}

/** A page of a file's threads older than the thread `before` (the newest without it): what the details leave out. */
export async function listOwnFileComments(deps: TDeps, site: TSiteRow, fileId: string, before: string | undefined): Promise<{ comments: TDetailsComment[]; hasMore: boolean }> {
  await openOwnFile(deps, site, fileId);
  let cursor: { id: string; created_at: number } | null = null;
  if (before !== undefined) {
    const thread = await findCommentOfSite(deps.db, site.id, before);
    if (!thread || thread.file_id !== fileId || thread.parent_id !== null) throw new AppError('not_found', 'Comment not found');
    cursor = thread;
  }
  const page = await listCommentThreadsBefore(deps.db, fileId, cursor, DETAILS_COMMENT_THREADS_PER_FILE);
  return { comments: toDetailsThreads(page.roots, page.replies).get(fileId) ?? [], hasMore: page.hasMore };
}

/** The chart of a site or one of its files over the last 7, 30 or 90 days. */
export async function getOwnDailyAnalytics(deps: TDeps, site: TSiteRow, fileId: string | undefined, days: number) {
  if (fileId !== undefined) await openOwnFile(deps, site, fileId);
  return getDailyAnalytics(deps, { siteId: site.id, fileId }, days);
}

/** `since` as an ISO date-time or epoch ms; undefined when absent. */
export function parseSince(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const ms = /^\d{1,16}$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) throw new AppError('validation_failed', 'since must be a date and time');
  return ms;
}

/**
 * An event is stamped when its request arrives and committed a moment later (views and downloads are
 * written by the analytics batcher, every 50 ms, with their rollups): a poll answers only what is older
 * than this, and that instant is its `now`, so the next poll (since `now`) neither misses an event
 * committed late nor repeats one, even one another API process wrote.
 */
export const ACTIVITY_SETTLE_MS = 2000;

/** What happened on the site after `since` (the dashboard polls it for live updates), and the time to ask from next. */
export async function listNewActivity(deps: TDeps, site: TSiteRow, since: number | undefined): Promise<{ activity: TActivity[]; now: string }> {
  const until = deps.clock.now() - ACTIVITY_SETTLE_MS;
  const rows = await listActivity(deps, { siteId: site.id }, { since, until, limit: ACTIVITY_POLL_LIMIT });
  return { activity: rows.map(({ at: _at, ...activity }) => activity), now: iso(until) };
}

/**
 * A reply from the site's creator to a visitor's comment (it joins that comment's thread). The
 * site shows it as the creator's: under the site's author name when it has one, and in a team's
 * workspace under the name of the member who wrote it.
 */
export async function replyAsCreator(deps: TDeps, creator: TSignedInCreator, site: TSiteRow, commentId: string, text: string): Promise<TDetailsCommentReply> {
  const comment = await findCommentOfSite(deps.db, site.id, commentId);
  if (!comment) throw new AppError('not_found', 'Comment not found');
  if (!parseSiteSettings(site.settings).enableComments) throw new AppError('forbidden', FEATURE_DISABLED_MESSAGE);
  assertCommentText(text);
  const row = {
    id: newId(),
    project_id: site.id,
    file_id: comment.file_id,
    // Replies are one level deep: answering a reply joins its thread.
    parent_id: comment.parent_id ?? comment.id,
    visitor_id: '',
    // In a team's workspace the reply says which member wrote it; in one's own, it is the site's author's.
    user_name: site.workspace_id !== null && site.workspace_id !== creator.id ? creator.name.trim() || creator.email : site.author_name.trim() || CREATOR_REPLY_NAME,
    user_email: null,
    body: text,
    created_at: deps.clock.now(),
    creator_id: creator.id,
  };
  await insertComment(deps.db, row);
  return toDetailsReply(row);
}

/** An approval's status as the export words it: the words the dashboard shows. */
const APPROVAL_CSV_STATUS: Record<TApprovalStatus, string> = { approved: 'approved', rejected: 'changes requested', pending: 'not reviewed' };

export const CSV_COLUMNS = ['type', 'date', 'file', 'visitor', 'visitor_email', 'text', 'status', 'views', 'unique_visitors', 'downloads'] as const;

/**
 * A site's engagement as CSV: one row per favourite, comment (a creator's reply as 'creator_reply',
 * never counted as a client's comment), approval, each with the name (and address) the visitor gave then, and per day and scope of traffic (the site's own row has an empty file).
 */
export async function exportEngagementCsv(deps: TDeps, site: TSiteRow): Promise<string> {
  await deps.analytics.flush();
  const [rows, days, files] = await Promise.all([listEngagementForExport(deps.db, site.id), listDailyTrafficOfSite(deps.db, site.id), listFilesBySite(deps.db, site.id)]);
  const names = new Map(files.map((f) => [f.id, f.name]));
  const nameOf = (fileId: string) => names.get(fileId) ?? '(removed file)';
  const lines: string[] = [CSV_COLUMNS.join(',')];
  const line = (cells: Record<(typeof CSV_COLUMNS)[number], string | number>) => lines.push(CSV_COLUMNS.map((c) => csvCell(cells[c])).join(','));
  const blank = { visitor_email: '', text: '', status: '', views: '', unique_visitors: '', downloads: '' };
  for (const f of rows.favorites) line({ ...blank, type: 'favorite', date: iso(f.created_at), file: nameOf(f.file_id), visitor: f.user_name, visitor_email: f.user_email ?? '' });
  for (const c of rows.comments) {
    const type = c.creator_id !== null ? 'creator_reply' : c.parent_id !== null ? 'reply' : 'comment';
    line({ ...blank, type, date: iso(c.created_at), file: nameOf(c.file_id), visitor: c.user_name, visitor_email: c.user_email ?? '', text: c.body });
  }
  for (const a of rows.approvals)
    line({
      ...blank,
      type: 'approval',
      date: iso(a.updated_at),
      file: nameOf(a.file_id),
      visitor: a.user_name,
      visitor_email: a.user_email ?? '',
      status: APPROVAL_CSV_STATUS[a.status],
    });
  for (const d of days) {
    line({
      ...blank,
      type: 'traffic',
      date: new Date(d.day * 86_400_000).toISOString().slice(0, 10),
      file: d.scope === SITE_SCOPE ? '' : nameOf(d.scope),
      visitor: '',
      views: d.views,
      unique_visitors: d.uniqueVisitors,
      downloads: d.downloads,
    });
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The signed-in creator's bell: favourites, comments and approvals on every site of the account
 * after `since` (all recent ones when absent), newest first, at most NOTIFICATIONS_KEPT.
 */
export async function listAccountUpdates(deps: Pick<TDashboardApiDeps, 'db'>, principal: TPrincipal, since: number | undefined): Promise<TEngagementUpdate[]> {
  const creator = await requireSignedInCreator(principal);
  const titles = await listSiteTitlesOfWorkspace(deps.db, await currentWorkspaceIdOf(deps.db, creator));
  const rows = await listRecentEngagement(deps.db, { siteIds: [...titles.keys()], since }, NOTIFICATIONS_KEPT);
  return toEngagementUpdates(rows, titles, 'Open Dashboard');
}
