/**
 * What the signed-in creator's dashboard reads of their sites: the list with each site's first
 * file, and a site's engagement bounded per file (the newest entries of each, and counts of all), so
 * a site with ten thousand comments answers as fast as one with ten. These reads of the engagement
 * tables serve only the creator's views, so they live here; every write stays in engagement/.
 */
import { PostgresAdapter, type Kysely, type Selectable } from 'kysely';
import type { TApprovalStatus } from '@dropsite/shared';
import type { ApprovalsTable, CommentsTable, Database, FavoritesTable, TSiteRow } from '../db/tables.ts';
import { DECIDED_STATUSES, selectRepliesTo } from '../engagement/engagement.repository.ts';

type TDb = Kysely<Database>;

/** A creator's site as the list shows it: its row's fields, its first file, and its counts. */
/** A site of the creator's list: its row's fields, its first file and its counts. */
export type TCreatorSiteRow = Pick<
  TSiteRow,
  'id' | 'title' | 'description' | 'slug' | 'status' | 'template' | 'settings' | 'password_hash' | 'expires_at' | 'deleted_at' | 'created_at' | 'owner_creator_id'
> & {
  first_file_id: string | null;
  first_file_metadata: string | null;
  first_file_version: number | null;
  file_count: number;
  favorites_count: number;
  comments_count: number;
  approvals_count: number;
  approved_count: number;
  changes_requested_count: number;
  /** Files with a decision (approved or changes requested) by anyone. */
  decided_files_count: number;
  views_count: number;
  downloads_count: number;
};

/**
 * The creator's live (not deleted) sites, newest first, each with its first file (by position),
 * its counts and its all-time traffic, in one query. The two planners want it written apart:
 * SQLite answers a correlated count as one probe of an index by site (a thousand sites, a
 * thousand small lookups); PostgreSQL runs each as a subplan per row, several times slower than
 * one grouped pass over the creator's rows of each table, joined.
 */
export async function listSitesOfWorkspace(db: TDb, workspaceId: string): Promise<TCreatorSiteRow[]> {
  const rows = db.getExecutor().adapter instanceof PostgresAdapter ? await listByGroupedJoins(db, workspaceId) : await listByCorrelatedCounts(db, workspaceId);
  return rows.map((r) => ({
    ...r,
    file_count: Number(r.file_count ?? 0),
    favorites_count: Number(r.favorites_count ?? 0),
    comments_count: Number(r.comments_count ?? 0),
    approvals_count: Number(r.approvals_count ?? 0),
    approved_count: Number(r.approved_count ?? 0),
    changes_requested_count: Number(r.changes_requested_count ?? 0),
    decided_files_count: Number(r.decided_files_count ?? 0),
    views_count: Number(r.views_count ?? 0),
    downloads_count: Number(r.downloads_count ?? 0),
  }));
}

const SITE_COLUMNS = [
  'p.id',
  'p.title',
  'p.description',
  'p.slug',
  'p.status',
  'p.template',
  'p.settings',
  'p.password_hash',
  'p.expires_at',
  'p.deleted_at',
  'p.created_at',
  'p.owner_creator_id',
] as const;

/** A list row as the database answers it: counts of a left join may be missing. */
type TCountColumn =
  | 'file_count'
  | 'favorites_count'
  | 'comments_count'
  | 'approvals_count'
  | 'approved_count'
  | 'changes_requested_count'
  | 'decided_files_count'
  | 'views_count'
  | 'downloads_count';
type TListRow = Omit<TCreatorSiteRow, TCountColumn> & Record<TCountColumn, number | null>;

function listByCorrelatedCounts(db: TDb, workspaceId: string): Promise<TListRow[]> {
  return (
    db
      .selectFrom('projects as p')
      // One probe of the site's all-time row for both figures.
      .leftJoin('analytics_totals as t', (join) => join.onRef('t.project_id', '=', 'p.id').on('t.scope', '=', ''))
      .select(['t.views as views_count', 't.downloads as downloads_count', ...SITE_COLUMNS])
      .select((eb) => {
        // Positions are unique within a site: ordered by the (site, position) index alone, no sort.
        const firstFile = () => eb.selectFrom('files').whereRef('files.project_id', '=', 'p.id').orderBy('files.position').limit(1);
        const count = (table: 'files' | 'favorites' | 'approvals') =>
          eb
            .selectFrom(table)
            .select((c) => c.fn.countAll<number>().as('n'))
            .whereRef(`${table}.project_id`, '=', 'p.id');
        const approvals = () => eb.selectFrom('approvals').whereRef('approvals.project_id', '=', 'p.id');
        // Client comments: the creator's own replies are not counted.
        const clientComments = eb
          .selectFrom('comments')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('comments.project_id', '=', 'p.id')
          .where('comments.creator_id', 'is', null);
        return [
          approvals()
            .select((c) => c.fn.countAll<number>().as('n'))
            .where('approvals.status', '=', 'approved')
            .as('approved_count'),
          approvals()
            .select((c) => c.fn.countAll<number>().as('n'))
            .where('approvals.status', '=', 'rejected')
            .as('changes_requested_count'),
          approvals()
            .select((c) => c.fn.count<number>('approvals.file_id').distinct().as('n'))
            .where('approvals.status', 'in', [...DECIDED_STATUSES])
            .as('decided_files_count'),
          firstFile().select('files.id').as('first_file_id'),
          firstFile().select('files.metadata').as('first_file_metadata'),
          firstFile().select('files.version').as('first_file_version'),
          count('files').as('file_count'),
          count('favorites').as('favorites_count'),
          clientComments.as('comments_count'),
          count('approvals').as('approvals_count'),
        ];
      })
      .where('p.workspace_id', '=', workspaceId)
      .where('p.deleted_at', 'is', null)
      // The (owner, created) index's order: no sort of a thousand rows.
      .orderBy('p.created_at', 'desc')
      .execute()
  );
}

function listByGroupedJoins(db: TDb, workspaceId: string): Promise<TListRow[]> {
  const ownSites = db.selectFrom('projects').select('id').where('workspace_id', '=', workspaceId);
  const countsOf = (table: 'files' | 'favorites' | 'approvals') =>
    db
      .selectFrom(table)
      .select((eb) => ['project_id', eb.fn.countAll<number>().as('n')])
      .where('project_id', 'in', ownSites)
      .groupBy('project_id');
  const approvalCounts = db
    .selectFrom('approvals')
    .select((eb) => [
      'project_id',
      eb.fn.countAll<number>().filterWhere('status', '=', 'approved').as('approved'),
      eb.fn.countAll<number>().filterWhere('status', '=', 'rejected').as('rejected'),
      eb.fn
        .count<number>('file_id')
        .distinct()
        .filterWhere('status', 'in', [...DECIDED_STATUSES])
        .as('decided_files'),
    ])
    .where('project_id', 'in', ownSites)
    .groupBy('project_id');
  // Client comments: the creator's own replies are not counted.
  const clientComments = db
    .selectFrom('comments')
    .select((eb) => ['project_id', eb.fn.countAll<number>().as('n')])
    .where('project_id', 'in', ownSites)
    .where('creator_id', 'is', null)
    .groupBy('project_id');
  const firstFiles = db
    .selectFrom('files as f')
    .innerJoin('projects as q', 'q.id', 'f.project_id')
    .distinctOn('f.project_id')
    .select(['f.project_id', 'f.id', 'f.metadata', 'f.version'])
    .where('q.workspace_id', '=', workspaceId)
    .orderBy('f.project_id')
    .orderBy('f.position');
  return db
    .selectFrom('projects as p')
    .leftJoin('analytics_totals as t', (join) => join.onRef('t.project_id', '=', 'p.id').on('t.scope', '=', ''))
    .leftJoin(firstFiles.as('ff'), 'ff.project_id', 'p.id')
    .leftJoin(countsOf('files').as('fc'), 'fc.project_id', 'p.id')
    .leftJoin(countsOf('favorites').as('fav'), 'fav.project_id', 'p.id')
    .leftJoin(clientComments.as('com'), 'com.project_id', 'p.id')
    .leftJoin(countsOf('approvals').as('app'), 'app.project_id', 'p.id')
    .leftJoin(approvalCounts.as('dec'), 'dec.project_id', 'p.id')
    .select([
      'dec.approved as approved_count',
      'dec.rejected as changes_requested_count',
      'dec.decided_files as decided_files_count',
      't.views as views_count',
      't.downloads as downloads_count',
      'ff.id as first_file_id',
      'ff.metadata as first_file_metadata',
      'ff.version as first_file_version',
      'fc.n as file_count',
      'fav.n as favorites_count',
      'com.n as comments_count',
      'app.n as approvals_count',
      ...SITE_COLUMNS,
    ])
    .where('p.workspace_id', '=', workspaceId)
    .where('p.deleted_at', 'is', null)
    .orderBy('p.created_at', 'desc')
    .execute();
}

export interface TFileCounts {
  favorites: number;
  comments: number;
  approvals: Record<TApprovalStatus, number>;
}

/** Favourites, client comments (their replies included, the creator's left out) and approvals by status, per file (read through each file's own index). */
export async function countEngagementByFile(db: TDb, fileIds: readonly string[]): Promise<Map<string, TFileCounts>> {
  const out = new Map<string, TFileCounts>();
  if (fileIds.length === 0) return out;
  const ids = [...fileIds];
  const [favorites, comments, approvals] = await Promise.all([
    db
      .selectFrom('favorites')
      .select((eb) => ['file_id', eb.fn.countAll<number>().as('n')])
      .where('file_id', 'in', ids)
      .groupBy('file_id')
      .execute(),
    db
      .selectFrom('comments')
      .select((eb) => ['file_id', eb.fn.countAll<number>().as('n')])
      .where('file_id', 'in', ids)
      .where('creator_id', 'is', null)
      .groupBy('file_id')
      .execute(),
    db
      .selectFrom('approvals')
      .select((eb) => ['file_id', 'status', eb.fn.countAll<number>().as('n')])
      .where('file_id', 'in', ids)
      .groupBy(['file_id', 'status'])
      .execute(),
  ]);
  for (const id of ids) out.set(id, { favorites: 0, comments: 0, approvals: { approved: 0, rejected: 0, pending: 0 } });
  for (const r of favorites) out.get(r.file_id)!.favorites = Number(r.n);
  for (const r of comments) out.get(r.file_id)!.comments = Number(r.n);
  for (const r of approvals) if (r.status !== 'pending') out.get(r.file_id)!.approvals[r.status] = Number(r.n);
  // Pending is whether the file still waits for anyone's decision (see ZApprovalCountsSchema).
  for (const counts of out.values()) counts.approvals.pending = counts.approvals.approved + counts.approvals.rejected === 0 ? 1 : 0;
  return out;
}

export type TFavoriteEntryRow = Pick<Selectable<FavoritesTable>, 'id' | 'file_id' | 'user_name' | 'user_email' | 'created_at'>;

/** The newest `perFile` favourites of each file of a site, newest first. */
export async function listNewestFavorites(db: TDb, siteId: string, perFile: number): Promise<TFavoriteEntryRow[]> {
  const ranked = db
    .selectFrom('favorites')
    .select((eb) => [
      'id',
      'file_id',
      'user_name',
      'user_email',
      'created_at',
      eb.fn
        .agg<number>('row_number')
        .over((ob) => ob.partitionBy('file_id').orderBy('created_at', 'desc').orderBy('id', 'desc'))
        .as('rank'),
    ])
    .where('project_id', '=', siteId)
    .as('ranked');
  return db
    .selectFrom(ranked)
    .select(['id', 'file_id', 'user_name', 'user_email', 'created_at'])
    .where('rank', '<=', perFile)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export type TApprovalEntryRow = Pick<Selectable<ApprovalsTable>, 'id' | 'file_id' | 'user_name' | 'user_email' | 'status' | 'updated_at'>;

/** The newest `perFile` approvals of each file of a site (by their last change), newest first. */
export async function listNewestApprovals(db: TDb, siteId: string, perFile: number): Promise<TApprovalEntryRow[]> {
  const ranked = db
    .selectFrom('approvals')
    .select((eb) => [
      'id',
      'file_id',
      'user_name',
      'user_email',
      'status',
      'updated_at',
      eb.fn
        .agg<number>('row_number')
        .over((ob) => ob.partitionBy('file_id').orderBy('updated_at', 'desc').orderBy('id', 'desc'))
        .as('rank'),
    ])
    .where('project_id', '=', siteId)
    .as('ranked');
  return db
    .selectFrom(ranked)
    .select(['id', 'file_id', 'user_name', 'user_email', 'status', 'updated_at'])
    .where('rank', '<=', perFile)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** What the dashboard reads of a comment. */
const COMMENT_ENTRY_COLUMNS = ['id', 'file_id', 'parent_id', 'user_name', 'user_email', 'body', 'created_at', 'creator_id'] as const;

export type TCommentEntryRow = Pick<Selectable<CommentsTable>, (typeof COMMENT_ENTRY_COLUMNS)[number]>;

/** Parameters one IN list carries at most (inside both dialects' limits). */
const MAX_IN_LIST = 1000;

/** Files whose newest threads one statement reads (one limited subquery each). */
const FILES_PER_STATEMENT = 50;

/**
 * The newest `perFile` threads of each file and every reply to them, all oldest first. Each file's
 * threads are read from its own (file, time) index, newest first, stopping at `perFile`: a file
 * with ten thousand comments costs what one with ten does.
 */
export async function listNewestCommentThreads(db: TDb, fileIds: readonly string[], perFile: number): Promise<{ roots: TCommentEntryRow[]; replies: TCommentEntryRow[] }> {
  const newestOf = (fileId: string) =>
    db
      .selectFrom(
        db
          .selectFrom('comments')
          .select(COMMENT_ENTRY_COLUMNS)
          .where('file_id', '=', fileId)
          .where('parent_id', 'is', null)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(perFile)
          .as('newest'),
      )
      .selectAll();
  const roots: TCommentEntryRow[] = [];
  for (let i = 0; i < fileIds.length; i += FILES_PER_STATEMENT) {
    const [first, ...rest] = fileIds.slice(i, i + FILES_PER_STATEMENT).map(newestOf);
    if (first) roots.push(...(await rest.reduce((query, next) => query.unionAll(next), first).execute()));
  }
  roots.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { roots, replies: await listRepliesTo(db, roots) };
}

/** The replies to `roots`, oldest first within each IN list of them. */
async function listRepliesTo(db: TDb, roots: readonly TCommentEntryRow[]): Promise<TCommentEntryRow[]> {
  const replies: TCommentEntryRow[] = [];
  for (let i = 0; i < roots.length; i += MAX_IN_LIST) {
    const ids = roots.slice(i, i + MAX_IN_LIST).map((r) => r.id);
    replies.push(...(await selectRepliesTo(db, ids).select(COMMENT_ENTRY_COLUMNS).execute()));
  }
  return replies;
}

/**
 * A page of one file's threads older than the thread `before` (the newest when null), oldest
 * first, each with its replies, and whether older ones remain: the (file, time) index read from
 * the cursor down, so any page costs what the first does.
 */
export async function listCommentThreadsBefore(
  db: TDb,
  fileId: string,
  before: { id: string; created_at: number } | null,
  limit: number,
): Promise<{ roots: TCommentEntryRow[]; replies: TCommentEntryRow[]; hasMore: boolean }> {
  let query = db.selectFrom('comments').select(COMMENT_ENTRY_COLUMNS).where('file_id', '=', fileId).where('parent_id', 'is', null);
  if (before) {
    query = query.where((eb) => eb.or([eb('created_at', '<', before.created_at), eb.and([eb('created_at', '=', before.created_at), eb('id', '<', before.id)])]));
  }
  const newest = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const roots = newest.slice(0, limit).reverse();
  return { roots, replies: await listRepliesTo(db, roots), hasMore: newest.length > limit };
}

/** A comment of a site, or null. */
export async function findCommentOfSite(db: TDb, siteId: string, commentId: string): Promise<TCommentEntryRow | null> {
  const row = await db.selectFrom('comments').select(COMMENT_ENTRY_COLUMNS).where('id', '=', commentId).where('project_id', '=', siteId).executeTakeFirst();
  return row ?? null;
}

export interface TEngagementExport {
  favorites: Array<Omit<TFavoriteEntryRow, 'id'>>;
  comments: Array<Omit<TCommentEntryRow, 'id'>>;
  approvals: Array<Omit<TApprovalEntryRow, 'id'>>;
}

/** The favourites, comments and approvals of a site's engagement export, oldest first. */
export async function listEngagementForExport(db: TDb, siteId: string): Promise<TEngagementExport> {
  const [favorites, comments, approvals] = await Promise.all([
    db.selectFrom('favorites').select(['file_id', 'user_name', 'user_email', 'created_at']).where('project_id', '=', siteId).orderBy('created_at').orderBy('id').execute(),
    db
      .selectFrom('comments')
      .select(['file_id', 'parent_id', 'user_name', 'user_email', 'body', 'created_at', 'creator_id'])
      .where('project_id', '=', siteId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('approvals')
      .select(['file_id', 'user_name', 'user_email', 'status', 'updated_at'])
      .where('project_id', '=', siteId)
      .orderBy('updated_at')
      .orderBy('id')
      .execute(),
  ]);
  return { favorites, comments, approvals };
}

/** The names of the given accounts (who published each site of a list). */
export async function namesOfCreators(db: TDb, creatorIds: readonly string[]): Promise<Map<string, string>> {
  if (creatorIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('creators')
    .select(['id', 'name', 'email'])
    .where('id', 'in', [...creatorIds])
    .execute();
  return new Map(rows.map((row) => [row.id, row.name.trim() === '' ? row.email : row.name]));
}

/** The id and title of each of the creator's live sites (what the bell's updates name). */
export async function listSiteTitlesOfWorkspace(db: TDb, workspaceId: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('projects').select(['id', 'title']).where('workspace_id', '=', workspaceId).where('deleted_at', 'is', null).execute();
  return new Map(rows.map((row) => [row.id, row.title]));
}
