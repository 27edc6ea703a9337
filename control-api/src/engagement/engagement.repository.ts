/** Favourites, approvals and comments: the only module that queries those tables. */
import { PostgresAdapter, sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { TApprovalStatus } from '@dropsite/shared';
import type { CommentsTable, Database, TSiteRow } from '../db/tables.ts';
import { cachedRead, type TDbCaches } from '../db/read-cache.ts';
import { compiledQuery } from '../db/compiled-query.ts';
import { createTurnBatcher } from '../db/turn-batch.ts';
import { runPrepared } from '../db/prepared-statements.ts';
import type { TEngagementEvent } from '../notifications/notification-messages.ts';

type TDb = Kysely<Database> | Transaction<Database>;

export interface TSiteFileRef {
  id: string;
  project_id: string;
  name: string;
}

/** A file of the given site, or null when there is none with that id on that site. */
export async function findFileOfSite(db: TDb, siteId: string, fileId: string): Promise<TSiteFileRef | null> {
  const row = await db.selectFrom('files').select(['id', 'project_id', 'name']).where('id', '=', fileId).where('project_id', '=', siteId).executeTakeFirst();
  return row ?? null;
}

/**
 * A live (not deleted) site and one of its files (null when the file is not on that site): the
 * lookup every engagement call starts with, answered from the read cache while neither row changed.
 * On SQLite two primary-key reads (cheaper than one join, for which SQLite scans the site's files);
 * on PostgreSQL one statement, a round trip being most of a query's cost there.
 */
export async function findSiteAndFile(db: TDb, siteId: string, fileId: string | null, caches: TDbCaches = {}): Promise<{ site: TSiteRow; file: TSiteFileRef | null } | null> {
  return cachedRead(
    db,
    caches.reads,
    `site-file\u0000${siteId}\u0000${fileId ?? ''}`,
    ['projects', 'files'],
    async () => {
      if (fileId !== null && db.getExecutor().adapter instanceof PostgresAdapter) {
        const { rows } = await siteAndFileQuery(db, caches.queries, siteId, fileId);
        const row = rows[0];
        if (!row) return null;
        const { joined_file_id, joined_file_name, ...site } = row;
        return { site, file: joined_file_id === null || joined_file_name === null ? null : { id: joined_file_id, project_id: site.id, name: joined_file_name } };
      }
      const [site, file] = await Promise.all([
        db.selectFrom('projects').selectAll().where('id', '=', siteId).where('deleted_at', 'is', null).executeTakeFirst(),
        fileId === null ? Promise.resolve(null) : findFileOfSite(db, siteId, fileId),
      ]);
      return site ? { site, file } : null;
    },
    (found) => {
      // A file asked for and not found may yet be added: then every change to the tables counts.
      if (found === null || (fileId !== null && found.file === null)) return null;
      const site = { table: 'projects', id: found.site.id };
      return found.file ? [site, { table: 'files', id: found.file.id }] : [site];
    },
  );
}

const siteAndFileQuery = compiledQuery((db: TDb, siteId: string, fileId: string) =>
  db
    .selectFrom('projects')
    .leftJoin('files', (join) => join.on('files.id', '=', fileId).onRef('files.project_id', '=', 'projects.id'))
    .selectAll('projects')
    .select(['files.id as joined_file_id', 'files.name as joined_file_name'])
    .where('projects.id', '=', siteId)
    .where('projects.deleted_at', 'is', null),
);

// ---- favourites

/** A visitor's mark on a file (a favourite, an approval): who, on what, when. */
export interface TVisitorMark {
  id: string;
  siteId: string;
  fileId: string;
  visitorId: string;
  userName: string;
  /** The address the visitor gave; null or absent for none. */
  userEmail?: string | null;
  now: number;
}

const insertFavoriteQuery = compiledQuery((db: TDb, id: string, siteId: string, fileId: string, visitorId: string, userName: string, userEmail: string | null, createdAt: number) =>
  db
    .insertInto('favorites')
    .values({ id, project_id: siteId, file_id: fileId, visitor_id: visitorId, user_name: userName, user_email: userEmail, created_at: createdAt })
    .onConflict((oc) => oc.columns(['file_id', 'visitor_id']).doNothing()),
);

const deleteFavoriteQuery = compiledQuery((db: TDb, fileId: string, visitorId: string) =>
  db.deleteFrom('favorites').where('file_id', '=', fileId).where('visitor_id', '=', visitorId),
);

const countFavoritesQuery = compiledQuery((db: TDb, fileId: string) =>
  db
    .selectFrom('favorites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('file_id', '=', fileId),
);

/** Adds the visitor's favourite; answers false when it was already there (one row per file and visitor). */
export async function addFavorite(db: TDb, favorite: TVisitorMark, caches: TDbCaches = {}): Promise<boolean> {
  const result = await insertFavoriteQuery(
    db,
    caches.queries,
    favorite.id,
    favorite.siteId,
    favorite.fileId,
    favorite.visitorId,
    favorite.userName,
    favorite.userEmail ?? null,
    favorite.now,
  );
  return Number(result.numAffectedRows ?? 0n) > 0;
}

/** Removes the visitor's favourite; answers whether there was one. */
export async function removeFavorite(db: TDb, fileId: string, visitorId: string, caches: TDbCaches = {}): Promise<boolean> {
  const result = await deleteFavoriteQuery(db, caches.queries, fileId, visitorId);
  return Number(result.numAffectedRows ?? 0n) > 0;
}

export async function countFavoritesOfFile(db: TDb, fileId: string, caches: TDbCaches = {}): Promise<number> {
  const { rows } = await countFavoritesQuery(db, caches.queries, fileId);
  return Number(rows[0]?.n ?? 0);
}

/** A favourite's change and the file's count after it. */
export interface TFavoriteChange {
  /** Whether the row was added (or removed) by this call. */
  changed: boolean;
  favoritesCount: number;
}

/**
 * Adds the visitor's favourite and answers the file's count after it. On PostgreSQL one
 * statement (the count, taken in the statement's snapshot, plus the row it added); on SQLite the
 * insert and the count, both local.
 */
export async function addFavoriteCounted(db: TDb, favorite: TVisitorMark, caches: TDbCaches = {}): Promise<TFavoriteChange> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await runPrepared(
      db,
      sql<{ n: string | number; changed: string | number }>`
      with added as (
        insert into favorites (id, project_id, file_id, visitor_id, user_name, user_email, created_at)
        values (${favorite.id}, ${favorite.siteId}, ${favorite.fileId}, ${favorite.visitorId}, ${favorite.userName}, ${favorite.userEmail ?? null}, ${favorite.now})
        on conflict (file_id, visitor_id) do nothing
        returning 1
      )
      select (select count(*) from favorites where file_id = ${favorite.fileId}) + (select count(*) from added) as n, (select count(*) from added) as changed`,
    );
    return { changed: Number(rows[0]!.changed) > 0, favoritesCount: Number(rows[0]!.n) };
  }
  const changed = await addFavorite(db, favorite, caches);
  return { changed, favoritesCount: await countFavoritesOfFile(db, favorite.fileId, caches) };
}

/**
 * Removes the visitor's favourite and answers the file's count after it: the delete and the count,
 * as SQLite's writer makes them (on PostgreSQL the favourite writer removes in its batched statement).
 */
export async function removeFavoriteCounted(db: TDb, fileId: string, visitorId: string, caches: TDbCaches = {}): Promise<TFavoriteChange> {
  const changed = await removeFavorite(db, fileId, visitorId, caches);
  return { changed, favoritesCount: await countFavoritesOfFile(db, fileId, caches) };
}

/** Favourite changes made outside a transaction; one per runtime (`deps.favorites`). */
export interface TFavoriteWriter {
  add(favorite: TVisitorMark): Promise<TFavoriteChange>;
  remove(fileId: string, visitorId: string): Promise<TFavoriteChange>;
}

/**
 * On PostgreSQL the changes asked in one turn of the event loop, additions and removals together,
 * are made in one statement, each answered with its own change and its file's count after the
 * statement; concurrent favourites share a round trip. One such statement runs at a time: changes
 * asked meanwhile go together in the next, so under load a round trip carries many, and two
 * statements never wait on each other's rows. On SQLite each is made alone.
 */
export function createFavoriteWriter(db: Kysely<Database>, caches: TDbCaches = {}): TFavoriteWriter {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    return {
      add: (favorite) => addFavoriteCounted(db, favorite, caches),
      remove: (fileId, visitorId) => removeFavoriteCounted(db, fileId, visitorId, caches),
    };
  }
  const change = createTurnBatcher((changes: readonly TFavoriteChangeAsked[]) => changeFavoritesCounted(db, changes), { maxRunning: 1 });
  return {
    add: (favorite) => change({ favorite, removal: null }),
    remove: (fileId, visitorId) => change({ favorite: null, removal: { fileId, visitorId } }),
  };
}

/** A favourite to add, or one to remove. */
type TFavoriteChangeAsked = { favorite: TVisitorMark; removal: null } | { favorite: null; removal: { fileId: string; visitorId: string } };

/**
 * PostgreSQL: favourites added and removed in one statement (prepared once per connection). A change
 * asked twice is made (and changed) once, by the first asking. One added and removed in the same
 * statement is answered as whichever came first in fact: the statement's insert and delete see the
 * same snapshot, so each answer, and every count, matches the rows the statement left.
 */
async function changeFavoritesCounted(db: TDb, changes: readonly TFavoriteChangeAsked[]): Promise<TFavoriteChange[]> {
  const column = <T>(pick: (change: TFavoriteChangeAsked) => T) => changes.map(pick);
  const { rows } = await runPrepared(
    db,
    sql<{ i: number | string; n: number | string; changed: boolean }>`
    with input as (
      select * from unnest(${column((c) => c.favorite?.id ?? null)}::text[], ${column((c) => c.favorite?.siteId ?? null)}::text[],
                           ${column((c) => c.favorite?.fileId ?? c.removal!.fileId)}::text[], ${column((c) => c.favorite?.visitorId ?? c.removal!.visitorId)}::text[],
                           ${column((c) => c.favorite?.userName ?? null)}::text[], ${column((c) => c.favorite?.userEmail ?? null)}::text[],
                           ${column((c) => c.favorite?.now ?? null)}::bigint[], ${column((c) => c.removal !== null)}::boolean[])
        with ordinality as t(id, project_id, file_id, visitor_id, user_name, user_email, created_at, is_removal, i)
    ),
    added as (
      insert into favorites (id, project_id, file_id, visitor_id, user_name, user_email, created_at)
      select id, project_id, file_id, visitor_id, user_name, user_email, created_at from input where not is_removal
      on conflict (file_id, visitor_id) do nothing
      returning file_id, visitor_id
    ),
    removed as (
      delete from favorites using input
      where input.is_removal and favorites.file_id = input.file_id and favorites.visitor_id = input.visitor_id
      returning favorites.file_id, favorites.visitor_id
    )
    select input.i,
      case when input.is_removal
        then exists (select 1 from removed where removed.file_id = input.file_id and removed.visitor_id = input.visitor_id)
        else exists (select 1 from added where added.file_id = input.file_id and added.visitor_id = input.visitor_id)
      end
        and input.i = (select min(same.i) from input same
                       where same.file_id = input.file_id and same.visitor_id = input.visitor_id and same.is_removal = input.is_removal) as changed,
      (select count(*) from favorites where favorites.file_id = input.file_id)
        + (select count(*) from added where added.file_id = input.file_id)
        - (select count(*) from removed where removed.file_id = input.file_id) as n
    from input`,
  );
  return changesInOrder(rows, changes.length);
}

function changesInOrder(rows: readonly { i: number | string; n: number | string; changed: boolean }[], count: number): TFavoriteChange[] {
  const changes = new Array<TFavoriteChange>(count);
  for (const row of rows) changes[Number(row.i) - 1] = { changed: row.changed, favoritesCount: Number(row.n) };
  return changes;
}

export async function listVisitorFavorites(db: TDb, siteId: string, visitorId: string): Promise<string[]> {
  const rows = await db.selectFrom('favorites').select('file_id').where('visitor_id', '=', visitorId).where('project_id', '=', siteId).orderBy('created_at').execute();
  return rows.map((r) => r.file_id);
}

// ---- approvals

export interface TApprovalWrite extends TVisitorMark {
  status: TApprovalStatus;
}

/**
 * Sets the visitor's approval of a file in one statement: inserted the first time, updated
 * after (one row per file and visitor by the UNIQUE constraint), so concurrent calls never
 * make two rows and the last write wins.
 */
export async function upsertApproval(db: TDb, approval: TApprovalWrite): Promise<{ status: TApprovalStatus; updated_at: number }> {
  return db
    .insertInto('approvals')
    .values({
      id: approval.id,
      project_id: approval.siteId,
      file_id: approval.fileId,
      visitor_id: approval.visitorId,
      user_name: approval.userName,
      user_email: approval.userEmail ?? null,
      status: approval.status,
      created_at: approval.now,
      updated_at: approval.now,
    })
    .onConflict((oc) =>
      oc
        .columns(['file_id', 'visitor_id'])
        .doUpdateSet({ status: approval.status, updated_at: approval.now, user_name: approval.userName, user_email: approval.userEmail ?? null }),
    )
    .returning(['status', 'updated_at'])
    .executeTakeFirstOrThrow();
}

export async function findApproval(db: TDb, fileId: string, visitorId: string): Promise<{ status: TApprovalStatus; updated_at: number } | null> {
  return (await db.selectFrom('approvals').select(['status', 'updated_at']).where('file_id', '=', fileId).where('visitor_id', '=', visitorId).executeTakeFirst()) ?? null;
}

export async function listVisitorApprovals(db: TDb, siteId: string, visitorId: string): Promise<Array<{ fileId: string; status: TApprovalStatus }>> {
  const rows = await db.selectFrom('approvals').select(['file_id', 'status']).where('visitor_id', '=', visitorId).where('project_id', '=', siteId).orderBy('updated_at').execute();
  return rows.map((r) => ({ fileId: r.file_id, status: r.status }));
}

// ---- comments

/**
 * A comment as the comment list reads it. `user_email` (the address the visitor gave) and `creator_id`
 * (the creator who wrote it from the dashboard; visitor_id is then '') may be absent: null or absent is none.
 */
export type TCommentRow = Pick<Selectable<CommentsTable>, 'id' | 'project_id' | 'file_id' | 'parent_id' | 'visitor_id' | 'user_name' | 'body' | 'created_at'> &
  Partial<Pick<Selectable<CommentsTable>, 'user_email' | 'creator_id'>>;

export async function insertComment(db: TDb, row: TCommentRow): Promise<void> {
  await db.insertInto('comments').values(row).execute();
}

export async function findCommentOfFile(db: TDb, fileId: string, commentId: string): Promise<TCommentRow | null> {
  return (await db.selectFrom('comments').selectAll().where('id', '=', commentId).where('file_id', '=', fileId).executeTakeFirst()) ?? null;
}

/** The replies to the threads `rootIds`, oldest first (the order a thread shows them); the caller picks the columns. */
export function selectRepliesTo(db: TDb, rootIds: readonly string[]) {
  return db.selectFrom('comments').where('parent_id', 'in', rootIds).orderBy('created_at').orderBy('id');
}

/** Files with up to this many comments are read in one query. */
const SINGLE_QUERY_COMMENTS = 1000;

/** The newest `limit` threads of a file (oldest first) with every reply (oldest first), and the file's total. */
export async function listCommentThreads(db: TDb, fileId: string, limit: number, caches: TDbCaches = {}): Promise<{ roots: TCommentRow[]; replies: TCommentRow[]; total: number }> {
  return cachedRead(db, caches.reads, `comment-threads\u0000${fileId}\u0000${limit}`, ['comments'], () => readCommentThreads(db, fileId, limit));
}

async function readCommentThreads(db: TDb, fileId: string, limit: number): Promise<{ roots: TCommentRow[]; replies: TCommentRow[]; total: number }> {
  // Most files have few comments: one query reads them all (in index order, so SQLite needs no
  // sort of its own) and the threads are cut here.
  const all = await db
    .selectFrom('comments')
    .selectAll()
    .where('file_id', '=', fileId)
    .orderBy('created_at')
    .limit(SINGLE_QUERY_COMMENTS + 1)
    .execute();
  if (all.length <= SINGLE_QUERY_COMMENTS) {
    all.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const roots = all.filter((c) => c.parent_id === null).slice(-limit);
    const kept = new Set(roots.map((r) => r.id));
    return { roots, replies: all.filter((c) => c.parent_id !== null && kept.has(c.parent_id)), total: all.length };
  }
  const newest = await db
    .selectFrom('comments')
    .selectAll()
    .where('file_id', '=', fileId)
    .where('parent_id', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const roots = newest.reverse();
  const rootIds = roots.map((r) => r.id);
  const replies = rootIds.length === 0 ? [] : await selectRepliesTo(db, rootIds).where('file_id', '=', fileId).selectAll().execute();
  const count = await db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('file_id', '=', fileId)
    .executeTakeFirstOrThrow();
  return { roots, replies, total: Number(count.n) };
}

export async function countCommentsByFile(db: TDb, siteId: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('comments')
    .select(['file_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('project_id', '=', siteId)
    .groupBy('file_id')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.file_id, Number(r.n)]));
}

// ---- totals (analytics and the anonymous creator's summary)

export interface TEngagementTotals {
  favorites: number;
  comments: number;
  approvals: { approved: number; rejected: number; pending: number };
}

/** Favourites, comments and approvals of one site, or of one file of it. */
/** The statuses that are a decision on a file; 'pending' is a client's withdrawn one. */
export const DECIDED_STATUSES = ['approved', 'rejected'] as const;

export async function countEngagement(db: TDb, scope: { siteId: string; fileId?: string | undefined }): Promise<TEngagementTotals> {
  const favorites = db
    .selectFrom('favorites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', scope.siteId);
  // Client comments: the creator's own replies are not counted.
  const comments = db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', scope.siteId)
    .where('creator_id', 'is', null);
  const approvals = db
    .selectFrom('approvals')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('project_id', '=', scope.siteId)
    .groupBy('status');
  // Pending: the files nobody has approved or asked changes of (a decision by any client reviews the file).
  const unreviewed = db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('files.project_id', '=', scope.siteId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('approvals')
            .select('approvals.id')
            .whereRef('approvals.file_id', '=', 'files.id')
            .where('approvals.status', 'in', [...DECIDED_STATUSES]),
        ),
      ),
    );
  const fileId = scope.fileId;
  const [f, c, a, u] = await Promise.all([
    (fileId ? favorites.where('file_id', '=', fileId) : favorites).executeTakeFirstOrThrow(),
    (fileId ? comments.where('file_id', '=', fileId) : comments).executeTakeFirstOrThrow(),
    (fileId ? approvals.where('file_id', '=', fileId) : approvals).execute(),
    (fileId ? unreviewed.where('files.id', '=', fileId) : unreviewed).executeTakeFirstOrThrow(),
  ]);
  const byStatus = { approved: 0, rejected: 0, pending: Number(u.n) };
  for (const row of a) if (row.status !== 'pending') byStatus[row.status] = Number(row.n);
  return { favorites: Number(f.n), comments: Number(c.n), approvals: byStatus };
}

/** Per site: favourites, comments and approvals (any status), for lists of many sites. */
export async function countEngagementBySite(db: TDb, siteIds: readonly string[]): Promise<Map<string, { favorites: number; comments: number; approvals: number }>> {
  const out = new Map<string, { favorites: number; comments: number; approvals: number }>();
  if (siteIds.length === 0) return out;
  for (const id of siteIds) out.set(id, { favorites: 0, comments: 0, approvals: 0 });
  const ids = [...siteIds];
  const count = (table: 'favorites' | 'comments' | 'approvals') =>
    db
      .selectFrom(table)
      .select(['project_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', 'in', ids)
      .groupBy('project_id');
  // Client comments: the creator's own replies are not counted.
  const [f, c, a] = await Promise.all([count('favorites').execute(), count('comments').where('creator_id', 'is', null).execute(), count('approvals').execute()]);
  for (const r of f) out.get(r.project_id)!.favorites = Number(r.n);
  for (const r of c) out.get(r.project_id)!.comments = Number(r.n);
  for (const r of a) out.get(r.project_id)!.approvals = Number(r.n);
  return out;
}

// ---- recent engagement (the analytics panel's activity and the anonymous creator's updates)

/** One favourite, comment or approval event of a creator's sites, as the updates list shows it. */
export interface TEngagementActivity {
  kind: 'favorite' | 'comment' | 'approval';
  /** Unique per event: an approval's id changes with each status change. */
  eventId: string;
  siteId: string;
  fileId: string;
  fileName: string;
  userName: string;
  text: string | null;
  status: TApprovalStatus | null;
  at: number;
}

/** The event an activity row records, as notifications and the activity lists describe it. */
export function engagementEventOf(row: TEngagementActivity): TEngagementEvent {
  return {
    type: row.kind,
    siteId: row.siteId,
    fileId: row.fileId,
    fileName: row.fileName,
    visitorName: row.userName,
    ...(row.text !== null ? { text: row.text } : {}),
    ...(row.status !== null ? { status: row.status } : {}),
  };
}

/**
 * The newest favourites, comments and approval changes of some sites (or of one file), newest
 * first, after `since` and up to `until` when given: read from the engagement rows themselves,
 * so nothing is written twice per event.
 */
export async function listRecentEngagement(
  db: TDb,
  scope: { siteIds: readonly string[]; fileId?: string | undefined; since?: number | undefined; until?: number | undefined },
  limit: number,
): Promise<TEngagementActivity[]> {
  if (scope.siteIds.length === 0) return [];
  const ids = [...scope.siteIds];
  const { fileId, since, until } = scope;
  let favorites = db
    .selectFrom('favorites')
    .innerJoin('files', 'files.id', 'favorites.file_id')
    .select(['favorites.id', 'favorites.project_id', 'favorites.file_id', 'files.name as file_name', 'favorites.user_name', 'favorites.created_at as at'])
    .where('favorites.project_id', 'in', ids);
  let comments = db
    .selectFrom('comments')
    .innerJoin('files', 'files.id', 'comments.file_id')
    .select(['comments.id', 'comments.project_id', 'comments.file_id', 'files.name as file_name', 'comments.user_name', 'comments.body', 'comments.created_at as at'])
    .where('comments.project_id', 'in', ids)
    // What clients did: the creator's own replies are not their activity.
    .where('comments.creator_id', 'is', null);
  let approvals = db
    .selectFrom('approvals')
    .innerJoin('files', 'files.id', 'approvals.file_id')
    .select(['approvals.id', 'approvals.project_id', 'approvals.file_id', 'files.name as file_name', 'approvals.user_name', 'approvals.status', 'approvals.updated_at as at'])
    .where('approvals.project_id', 'in', ids);
  if (fileId !== undefined) {
    favorites = favorites.where('favorites.file_id', '=', fileId);
    comments = comments.where('comments.file_id', '=', fileId);
    approvals = approvals.where('approvals.file_id', '=', fileId);
  }
  if (since !== undefined) {
    favorites = favorites.where('favorites.created_at', '>', since);
    comments = comments.where('comments.created_at', '>', since);
    approvals = approvals.where('approvals.updated_at', '>', since);
  }
  if (until !== undefined) {
    favorites = favorites.where('favorites.created_at', '<=', until);
    comments = comments.where('comments.created_at', '<=', until);
    approvals = approvals.where('approvals.updated_at', '<=', until);
  }
  const [f, c, a] = await Promise.all([
    favorites.orderBy('favorites.created_at', 'desc').orderBy('favorites.id', 'desc').limit(limit).execute(),
    comments.orderBy('comments.created_at', 'desc').orderBy('comments.id', 'desc').limit(limit).execute(),
    approvals.orderBy('approvals.updated_at', 'desc').orderBy('approvals.id', 'desc').limit(limit).execute(),
  ]);
  const rows: TEngagementActivity[] = [
    ...f.map((r) => ({
      kind: 'favorite' as const,
      eventId: `favorite-${r.id}`,
      siteId: r.project_id,
      fileId: r.file_id,
      fileName: r.file_name,
      userName: r.user_name,
      text: null,
      status: null,
      at: Number(r.at),
    })),
    ...c.map((r) => ({
      kind: 'comment' as const,
      eventId: `comment-${r.id}`,
      siteId: r.project_id,
      fileId: r.file_id,
      fileName: r.file_name,
      userName: r.user_name,
      text: r.body,
      status: null,
      at: Number(r.at),
    })),
    ...a.map((r) => ({
      kind: 'approval' as const,
      eventId: `approval-${r.id}-${r.at}`,
      siteId: r.project_id,
      fileId: r.file_id,
      fileName: r.file_name,
      userName: r.user_name,
      text: null,
      status: r.status,
      at: Number(r.at),
    })),
  ];
  return rows.sort((x, y) => y.at - x.at || (x.eventId < y.eventId ? 1 : -1)).slice(0, limit);
}
