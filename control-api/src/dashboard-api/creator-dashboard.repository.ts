/**
 * What the signed-in creator's dashboard reads of their sites: the list with each site's first
 * file, and a site's engagement bounded per file (the newest entries of each, and counts of all), so
 * a site with ten thousand comments answers as fast as one with ten. These reads of the engagement
 * tables serve only the creator's views, so they live here; every write stays in engagement/.
 */
import type { Kysely } from 'kysely';
import type { TApprovalStatus } from '@dropsite/shared';
import type { Database, TProjectRow } from '../db/tables.ts';

type TDb = Kysely<Database>;

/** The creator's live (not deleted) sites, newest first. */
export async function listProjectsOfCreator(db: TDb, creatorId: string): Promise<TProjectRow[]> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('owner_creator_id', '=', creatorId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export interface TFirstFile {
  projectId: string;
  fileId: string;
  metadata: string;
  fileCount: number;
}

/** Each site's first file (by position) and how many files it has, in one pass over their files. */
export async function listFirstFiles(db: TDb, projectIds: readonly string[]): Promise<Map<string, TFirstFile>> {
  const out = new Map<string, TFirstFile>();
  if (projectIds.length === 0) return out;
  const ranked = db
    .selectFrom('files')
    .select((eb) => [
      'id',
      'project_id',
      'metadata',
      eb.fn
        .agg<number>('row_number')
        .over((ob) => ob.partitionBy('project_id').orderBy('position').orderBy('id'))
        .as('rank'),
      eb.fn
        .countAll<number>()
        .over((ob) => ob.partitionBy('project_id'))
        .as('file_count'),
    ])
    .where('project_id', 'in', [...projectIds])
    .as('ranked');
  const rows = await db.selectFrom(ranked).select(['id', 'project_id', 'metadata', 'file_count']).where('rank', '=', 1).execute();
  for (const r of rows) out.set(r.project_id, { projectId: r.project_id, fileId: r.id, metadata: r.metadata, fileCount: Number(r.file_count) });
  return out;
}

export interface TFileCounts {
  favorites: number;
  comments: number;
  approvals: Record<TApprovalStatus, number>;
}

/** Favourites, comments (replies included) and approvals by status, per file of a site. */
export async function countEngagementByFile(db: TDb, projectId: string): Promise<Map<string, TFileCounts>> {
  const count = (table: 'favorites' | 'comments') =>
    db
      .selectFrom(table)
      .select((eb) => ['file_id', eb.fn.countAll<number>().as('n')])
      .where('project_id', '=', projectId)
      .groupBy('file_id')
      .execute();
  const [favorites, comments, approvals] = await Promise.all([
    count('favorites'),
    count('comments'),
    db
      .selectFrom('approvals')
      .select((eb) => ['file_id', 'status', eb.fn.countAll<number>().as('n')])
      .where('project_id', '=', projectId)
      .groupBy(['file_id', 'status'])
      .execute(),
  ]);
  const out = new Map<string, TFileCounts>();
  const of = (fileId: string) => {
    let counts = out.get(fileId);
    if (!counts) {
      counts = { favorites: 0, comments: 0, approvals: { approved: 0, rejected: 0, pending: 0 } };
      out.set(fileId, counts);
    }
    return counts;
  };
  for (const r of favorites) of(r.file_id).favorites = Number(r.n);
  for (const r of comments) of(r.file_id).comments = Number(r.n);
  for (const r of approvals) of(r.file_id).approvals[r.status] = Number(r.n);
  return out;
}

export interface TFavoriteEntryRow {
  id: string;
  file_id: string;
  user_name: string;
  created_at: number;
}

/** The newest `perFile` favourites of each file of a site, newest first. */
export async function listNewestFavorites(db: TDb, projectId: string, perFile: number): Promise<TFavoriteEntryRow[]> {
  const ranked = db
    .selectFrom('favorites')
    .select((eb) => [
      'id',
      'file_id',
      'user_name',
      'created_at',
      eb.fn
        .agg<number>('row_number')
        .over((ob) => ob.partitionBy('file_id').orderBy('created_at', 'desc').orderBy('id', 'desc'))
        .as('rank'),
    ])
    .where('project_id', '=', projectId)
    .as('ranked');
  return db.selectFrom(ranked).select(['id', 'file_id', 'user_name', 'created_at']).where('rank', '<=', perFile).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export interface TApprovalEntryRow {
  id: string;
  file_id: string;
  user_name: string;
  status: TApprovalStatus;
  updated_at: number;
}

/** The newest `perFile` approvals of each file of a site (by their last change), newest first. */
export async function listNewestApprovals(db: TDb, projectId: string, perFile: number): Promise<TApprovalEntryRow[]> {
  const ranked = db
    .selectFrom('approvals')
    .select((eb) => [
      'id',
      'file_id',
      'user_name',
      'status',
      'updated_at',
      eb.fn
        .agg<number>('row_number')
        .over((ob) => ob.partitionBy('file_id').orderBy('updated_at', 'desc').orderBy('id', 'desc'))
        .as('rank'),
    ])
    .where('project_id', '=', projectId)
    .as('ranked');
  return db
    .selectFrom(ranked)
    .select(['id', 'file_id', 'user_name', 'status', 'updated_at'])
    .where('rank', '<=', perFile)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export interface TCommentEntryRow {
  id: string;
  file_id: string;
  parent_id: string | null;
  user_name: string;
  body: string;
  created_at: number;
  creator_id: string | null;
}

/** Parameters one IN list carries at most (inside both dialects' limits). */
const MAX_IN_LIST = 1000;

/** The newest `perFile` threads of each file of a site and every reply to them, all oldest first. */
export async function listNewestCommentThreads(db: TDb, projectId: string, perFile: number): Promise<{ roots: TCommentEntryRow[]; replies: TCommentEntryRow[] }> {
  const columns = ['id', 'file_id', 'parent_id', 'user_name', 'body', 'created_at', 'creator_id'] as const;
  const ranked = db
    .selectFrom('comments')
    .select((eb) => [
      ...columns,
      eb.fn
        .agg<number>('row_number')
        .over((ob) => ob.partitionBy('file_id').orderBy('created_at', 'desc').orderBy('id', 'desc'))
        .as('rank'),
    ])
    .where('project_id', '=', projectId)
    .where('parent_id', 'is', null)
    .as('ranked');
  const roots = await db
    .selectFrom(ranked)
    .select([...columns])
    .where('rank', '<=', perFile)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const replies: TCommentEntryRow[] = [];
  for (let i = 0; i < roots.length; i += MAX_IN_LIST) {
    const ids = roots.slice(i, i + MAX_IN_LIST).map((r) => r.id);
    replies.push(
      ...(await db
        .selectFrom('comments')
        .select([...columns])
        .where('parent_id', 'in', ids)
        .orderBy('created_at')
        .orderBy('id')
        .execute()),
    );
  }
  return { roots, replies };
}

/** A comment of a site, or null. */
export async function findCommentOfProject(db: TDb, projectId: string, commentId: string): Promise<TCommentEntryRow | null> {
  const row = await db
    .selectFrom('comments')
    .select(['id', 'file_id', 'parent_id', 'user_name', 'body', 'created_at', 'creator_id'])
    .where('id', '=', commentId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row ?? null;
}

export interface TExportRows {
  favorites: Array<{ file_id: string; user_name: string; created_at: number }>;
  comments: Array<{ file_id: string; parent_id: string | null; user_name: string; body: string; created_at: number; creator_id: string | null }>;
  approvals: Array<{ file_id: string; user_name: string; status: TApprovalStatus; updated_at: number }>;
}

/** The favourites, comments and approvals of a site's engagement export, oldest first. */
export async function listEngagementForExport(db: TDb, projectId: string): Promise<TExportRows> {
  const [favorites, comments, approvals] = await Promise.all([
    db.selectFrom('favorites').select(['file_id', 'user_name', 'created_at']).where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute(),
    db
      .selectFrom('comments')
      .select(['file_id', 'parent_id', 'user_name', 'body', 'created_at', 'creator_id'])
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db.selectFrom('approvals').select(['file_id', 'user_name', 'status', 'updated_at']).where('project_id', '=', projectId).orderBy('updated_at').orderBy('id').execute(),
  ]);
  return { favorites, comments, approvals };
}
