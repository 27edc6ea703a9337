/**
 * Favourites, approvals and comments (spec 2.3, 4, 5, 7.1): the rules and access checks. Every
 * call first proves the site may be served to this request (resolveSiteAccess), then that its
 * creator turned the feature on, then that the file belongs to the site. The visitor is always
 * the principal's (the request's cookie).
 */
import {
  FEATURE_DISABLED_MESSAGE,
  findCommentTextProblem,
  type TApprovalStatus,
  type TComment,
  type TCommentReply,
  type TEngagementStateResponse,
  type TSiteSettings,
} from '@dropsite/shared';
import type { TEngagementDeps } from './engagement.deps.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Database, TSiteRow } from '../db/tables.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { parseSiteSettings } from '../site-records/site-records.repository.ts';
import type { TPrincipal } from '../access/principal.ts';
import { assertSiteOpen, resolveSiteAccess } from '../sites/site-access.ts';
import type { TEngagementEvent } from '../notifications/notification-messages.ts';
import { queueEngagementNotifications } from '../notifications/notifications.service.ts';
import {
  addFavoriteCounted,
  countCommentsByFile,
  findApproval,
  findCommentOfFile,
  findFileOfSite,
  findSiteAndFile,
  insertComment,
  listCommentThreads,
  listVisitorApprovals,
  listVisitorFavorites,
  upsertApproval,
  type TCommentRow,
  type TSiteFileRef,
  type TVisitorMark,
} from './engagement.repository.ts';
import { isoTime } from './iso-time.ts';
import { visitorProfileOf } from '../visitors/visitor-record.ts';

/** Who engages: the cookie's visitor id, and the name (and address) they gave, stored with each row. */
export interface TEngagingVisitor {
  id: string;
  name: string;
  email: string | null;
}

type TDeps = Pick<TEngagementDeps, 'db' | 'config' | 'clock' | 'log' | 'keys' | 'caches'>;

export type TEngagementFeature = 'favorites' | 'comments' | 'approvals' | 'analytics';

/** Threads sent per file; older ones stay in the database (and in `total`). */
export const COMMENT_THREADS_SENT = 200;

export function isFeatureEnabled(settings: TSiteSettings, feature: TEngagementFeature): boolean {
  switch (feature) {
    case 'favorites':
      return settings.enableFavorites;
    case 'comments':
      return settings.enableComments;
    case 'approvals':
      return settings.enableApprovals;
    case 'analytics':
      return settings.enableAnalytics;
  }
}

export interface TEngagementSite {
  row: TSiteRow;
  settings: TSiteSettings;
}

/**
 * The site of an engagement call, when this request may use it: 404 missing or deleted, 410
 * expired, 401 locked (no valid unlock), 403 when the feature is off.
 */
export async function openEngagementSite(deps: TDeps, principal: TPrincipal, siteId: string, feature: TEngagementFeature | null): Promise<TEngagementSite> {
  return (await openEngagementTarget(deps, principal, siteId, null, feature)).site;
}

/**
 * The site and, when `fileId` is given, its file (one query): the same checks as
 * openEngagementSite, then 404 when the file is not on that site.
 */
export async function openEngagementTarget(
  deps: TDeps,
  principal: TPrincipal,
  siteId: string,
  fileId: string | null,
  feature: TEngagementFeature | null,
): Promise<{ site: TEngagementSite; file: TSiteFileRef | null }> {
  const found = await findSiteAndFile(deps.db, siteId, fileId, deps.caches);
  if (!found) throw new AppError('not_found', 'Site not found');
  const { site, file } = found;
  assertSiteOpen(resolveSiteAccess(deps, principal, site));
  const settings = parseSiteSettings(site.settings);
  if (feature !== null && !isFeatureEnabled(settings, feature)) throw new AppError('forbidden', FEATURE_DISABLED_MESSAGE);
  if (fileId !== null && !file) throw new AppError('not_found', 'File not found');
  return { site: { row: site, settings }, file };
}

/** openEngagementTarget for calls about one file. */
export async function openEngagementFile(
  deps: TDeps,
  principal: TPrincipal,
  siteId: string,
  fileId: string,
  feature: TEngagementFeature,
): Promise<{ site: TEngagementSite; file: TSiteFileRef }> {
  const { site, file } = await openEngagementTarget(deps, principal, siteId, fileId, feature);
  return { site, file: file! };
}

export async function findSiteFile(deps: TDeps, site: TSiteRow, fileId: string): Promise<TSiteFileRef> {
  const file = await findFileOfSite(deps.db, site.id, fileId);
  if (!file) throw new AppError('not_found', 'File not found');
  return file;
}

type TWriter = Kysely<Database> | Transaction<Database>;

/**
 * Runs an engagement write, with its notification rows in the same transaction when the site
 * sends notifications. The activity and in-app updates are read from the engagement rows
 * themselves, so nothing else is written per event.
 */
async function writeEngagement<T>(deps: TDeps, site: TEngagementSite, write: (db: TWriter, notify: (event: TEngagementEvent) => Promise<void>) => Promise<T>): Promise<T> {
  if (!site.settings.enableNotifications) return write(deps.db, async () => {});
  return deps.db.transaction().execute((trx) => write(trx, (event) => queueEngagementNotifications(deps, trx, site.row, site.settings, event)));
}

/** A new mark (a favourite, an approval) of the visitor on the file, made now. */
function newVisitorMark(deps: TDeps, site: TEngagementSite, file: TSiteFileRef, visitor: TEngagingVisitor): TVisitorMark {
  return { id: newId(), siteId: site.row.id, fileId: file.id, visitorId: visitor.id, userName: visitor.name, userEmail: visitor.email, now: deps.clock.now() };
}

/** What the site's creator is told of a visitor's favourite, comment or approval on the file. */
function engagementEvent(
  type: TEngagementEvent['type'],
  site: TEngagementSite,
  file: TSiteFileRef,
  visitor: TEngagingVisitor,
  detail: Pick<TEngagementEvent, 'text' | 'status'> = {},
): TEngagementEvent {
  return { type, siteId: site.row.id, fileId: file.id, fileName: file.name, visitorName: visitor.name, ...detail };
}

export async function setFavorite(
  deps: TDeps & Pick<TEngagementDeps, 'favorites'>,
  site: TEngagementSite,
  file: TSiteFileRef,
  visitor: TEngagingVisitor,
  isFavorite: boolean,
): Promise<{ isFavorite: boolean; favoritesCount: number }> {
  if (!isFavorite) return { isFavorite, favoritesCount: (await deps.favorites.remove(file.id, visitor.id)).favoritesCount };
  const favorite = newVisitorMark(deps, site, file, visitor);
  // Without notifications a favourite is one statement, shared with the others of its turn (deps.favorites).
  if (!site.settings.enableNotifications) return { isFavorite, favoritesCount: (await deps.favorites.add(favorite)).favoritesCount };
  const { favoritesCount } = await writeEngagement(deps, site, async (db, notify) => {
    const change = await addFavoriteCounted(db, favorite, deps.caches);
    // A repeated favourite is a no-op: no second notification.
    if (change.changed) await notify(engagementEvent('favorite', site, file, visitor));
    return change;
  });
  return { isFavorite, favoritesCount };
}

export async function setApproval(
  deps: TDeps,
  site: TEngagementSite,
  file: TSiteFileRef,
  visitor: TEngagingVisitor,
  status: TApprovalStatus,
): Promise<{ status: TApprovalStatus; updatedAt: number }> {
  // Setting the status it already has changes nothing (and tells nobody).
  const current = await findApproval(deps.db, file.id, visitor.id);
  if (current?.status === status) return { status, updatedAt: current.updated_at };
  return writeEngagement(deps, site, async (db, notify) => {
    const row = await upsertApproval(db, { ...newVisitorMark(deps, site, file, visitor), status });
    await notify(engagementEvent('approval', site, file, visitor, { status }));
    return { status: row.status, updatedAt: row.updated_at };
  });
}

function toCommentReply(row: TCommentRow, visitorId: string): TCommentReply {
  return {
    id: row.id,
    fileId: row.file_id,
    parentId: row.parent_id,
    userName: row.user_name,
    commentText: row.body,
    createdAt: isoTime(row.created_at),
    // A creator's reply has no visitor: it is nobody's own.
    isOwn: row.creator_id == null && row.visitor_id === visitorId,
    isCreator: row.creator_id != null,
  };
}

/**
 * One comment as the list sends it, as JSON without its closing brace (a top-level comment's replies
 * follow): for its author and for everyone else. Rows the read cache answers are the same objects
 * request after request, so each is written once (`deps.caches.commentJson`), not per view.
 */
function commentJson(caches: TDeps['caches'], row: TCommentRow, visitorId: string): string {
  let written = caches.commentJson.get(row);
  if (!written) {
    const { isOwn: _, isCreator, ...fields } = toCommentReply(row, '');
    const head = JSON.stringify(fields).slice(0, -1);
    written = { own: `${head},"isOwn":true,"isCreator":${isCreator}`, others: `${head},"isOwn":false,"isCreator":${isCreator}` };
    caches.commentJson.set(row, written);
  }
  // A creator's reply has no visitor: it is nobody's own.
  return row.creator_id == null && row.visitor_id === visitorId ? written.own : written.others;
}

/**
 * GET /api/comments's answer (TCommentsResponse) as JSON text: the file's threads, oldest first, each
 * comment marked as the asking visitor's own or not.
 */
export async function listCommentsJson(deps: TDeps, file: TSiteFileRef, visitorId: string): Promise<string> {
  const { roots, replies, total } = await listCommentThreads(deps.db, file.id, COMMENT_THREADS_SENT, deps.caches);
  const byRoot = new Map<string, string[]>();
  for (const reply of replies) {
    const list = byRoot.get(reply.parent_id!) ?? [];
    list.push(`${commentJson(deps.caches, reply, visitorId)}}`);
    byRoot.set(reply.parent_id!, list);
  }
  const comments = roots.map((root) => `${commentJson(deps.caches, root, visitorId)},"replies":[${(byRoot.get(root.id) ?? []).join(',')}]}`);
  return `{"success":true,"comments":[${comments.join(',')}],"total":${total}}`;
}

/** Refuses a comment text the way spec 5 and the checklist ask: blank 400, too long 413, NUL or broken text 400. */
export function assertCommentText(text: string): void {
  const problem = findCommentTextProblem(text);
  if (problem === 'blank') throw new AppError('validation_failed', 'Please write a comment before sending');
  if (problem === 'too_long') throw new AppError('payload_too_large', 'Comments can be at most 5,000 characters');
  if (problem === 'invalid') throw new AppError('bad_request', 'The comment contains characters that cannot be stored');
}

export async function createComment(
  deps: TDeps,
  site: TEngagementSite,
  file: TSiteFileRef,
  visitor: TEngagingVisitor,
  input: { commentText: string; replyTo: string | null },
): Promise<TComment> {
  const { id: visitorId, name: userName, email: userEmail } = visitor;
  assertCommentText(input.commentText);
  let parentId: string | null = null;
  if (input.replyTo) {
    const parent = await findCommentOfFile(deps.db, file.id, input.replyTo);
    if (!parent) throw new AppError('not_found', 'The comment you replied to no longer exists');
    // Replies are one level deep: answering a reply joins its thread.
    parentId = parent.parent_id ?? parent.id;
  }
  const row: TCommentRow = {
    id: newId(),
    project_id: site.row.id,
    file_id: file.id,
    parent_id: parentId,
    visitor_id: visitorId,
    user_name: userName,
    user_email: userEmail,
    // Stored exactly as typed; whoever shows it shows it as text.
    body: input.commentText,
    created_at: deps.clock.now(),
  };
  await writeEngagement(deps, site, async (db, notify) => {
    await insertComment(db, row);
    await notify(engagementEvent('comment', site, file, visitor, { text: input.commentText }));
  });
  return { ...toCommentReply(row, visitorId), replies: [] };
}

export async function getVisitorState(deps: TDeps, site: TEngagementSite, visitorId: string): Promise<Omit<TEngagementStateResponse, 'success'>> {
  const { row: siteRow, settings } = site;
  const [visitor, favorites, approvals, commentCounts] = await Promise.all([
    visitorProfileOf(deps, visitorId),
    settings.enableFavorites ? listVisitorFavorites(deps.db, siteRow.id, visitorId) : Promise.resolve([]),
    settings.enableApprovals ? listVisitorApprovals(deps.db, siteRow.id, visitorId) : Promise.resolve([]),
    settings.enableComments ? countCommentsByFile(deps.db, siteRow.id) : Promise.resolve({}),
  ]);
  return {
    visitor,
    features: { favorites: settings.enableFavorites, comments: settings.enableComments, approvals: settings.enableApprovals, analytics: settings.enableAnalytics },
    favorites,
    approvals,
    commentCounts,
  };
}
