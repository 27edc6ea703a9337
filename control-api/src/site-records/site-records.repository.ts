/** Site and file rows: the only module that queries the sites and files tables. */
import type { Kysely, Transaction } from 'kysely';
import {
  ZContactInfoSchema,
  ZDerivedMetadataSchema,
  ZSiteSettingsSchema,
  ZTemplateIdSchema,
  type TContactInfo,
  type TDerivedMetadata,
  type TSiteSettings,
  type TTemplateId,
} from '@dropsite/shared';
import type { Database, TFileRow, TNewFile, TNewSite, TSiteRow, TSiteStatus, TSiteUpdate } from '../db/tables.ts';
import { compiledQuery } from '../db/compiled-query.ts';
import { cachedRead, type TDbCaches } from '../db/read-cache.ts';

type TDb = Kysely<Database>;

/** The fields of a file's site that decide whether a visitor may fetch the file. */
export interface TFileSiteAccess {
  id: string;
  slug: string;
  status: TSiteStatus;
  deleted_at: number | null;
  expires_at: number | null;
  password_hash: string | null;
  password_version: number;
}

/** A file row with its site's access fields. */
export type TFileWithSite = TFileRow & { site: TFileSiteAccess };

/** A file to create with a site; its project_id is the site's. */
export type TNewSiteFile = Omit<TNewFile, 'project_id'>;

export async function insertSite(db: TDb, row: TNewSite): Promise<void> {
  await db.insertInto('projects').values(row).execute();
}

/**
 * Creates a site and its files in one transaction, so a failure never leaves a site without its
 * files. `check` runs first in that transaction (the plan's limits): when it throws, nothing is written.
 */
export async function createSiteWithFiles(db: TDb, site: TNewSite, files: readonly TNewSiteFile[], check?: (trx: Transaction<Database>) => Promise<unknown>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await check?.(trx);
    await insertSite(trx, site);
    await insertFiles(
      trx,
      files.map((file) => ({ ...file, project_id: site.id })),
    );
  });
}

/** A site by id; soft-deleted ones only when asked for. */
/** Removes a site for good; its files, builds and engagement go with it (ON DELETE CASCADE). */
export async function deleteSiteById(db: TDb, id: string): Promise<void> {
  await db.deleteFrom('projects').where('id', '=', id).execute();
}

export async function findSiteById(db: TDb, id: string, options: { includeDeleted?: boolean } = {}): Promise<TSiteRow | null> {
  let query = db.selectFrom('projects').selectAll().where('id', '=', id);
  if (options.includeDeleted !== true) query = query.where('deleted_at', 'is', null);
  return (await query.executeTakeFirst()) ?? null;
}

/** Whether a site row with this id exists (deleted or not). */
export async function siteExists(db: TDb, id: string): Promise<boolean> {
  return (await db.selectFrom('projects').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

const siteBySlugQuery = compiledQuery((db: TDb, slug: string) => db.selectFrom('projects').selectAll().where('slug', '=', slug).where('deleted_at', 'is', null));

/**
 * A live (not soft-deleted) site by slug. With the runtime's caches (a site's page views), on
 * SQLite the row is answered from memory while that site's row did not change (no site, when
 * none was found): the same object each time, which callers must not change.
 */
export async function findSiteBySlug(db: TDb, slug: string, caches: TDbCaches = {}): Promise<TSiteRow | null> {
  return cachedRead(
    db,
    caches.reads,
    `site-slug\u0000${slug}`,
    ['projects'],
    async () => (await siteBySlugQuery(db, caches.queries, slug)).rows[0] ?? null,
    // A slug is unique among all sites, deleted ones too: only this row's change can change the answer.
    (site) => (site ? [{ table: 'projects', id: site.id }] : null),
  );
}

/** Whether any site holds the slug; deleted ones count, since the unique constraint covers them too. */
export async function isSlugTaken(db: TDb, slug: string): Promise<boolean> {
  const row = await db.selectFrom('projects').select('id').where('slug', '=', slug).executeTakeFirst();
  return row !== undefined;
}

/**
 * Ids of every site not soft-deleted, oldest first (for `rebuild --all`).
 * Given `now`, sites that expired by then are left out.
 */
export async function listSiteIds(db: TDb, options: { now?: number } = {}): Promise<string[]> {
  let query = db.selectFrom('projects').select('id').where('deleted_at', 'is', null);
  if (options.now !== undefined) {
    const now = options.now;
    query = query.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  }
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** Id and slug of every site neither deleted nor expired at `now`, oldest first. */
export async function listLiveSites(db: TDb, now: number): Promise<Array<{ id: string; slug: string }>> {
  return db
    .selectFrom('projects')
    .select(['id', 'slug'])
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Ids of the non-deleted sites holding the given slugs; slugs without a site are absent. */
export async function listSiteIdsBySlug(db: TDb, slugs: readonly string[]): Promise<Array<{ id: string; slug: string }>> {
  if (slugs.length === 0) return [];
  return db
    .selectFrom('projects')
    .select(['id', 'slug'])
    .where('slug', 'in', [...slugs])
    .where('deleted_at', 'is', null)
    .orderBy('slug')
    .execute();
}

/** Applies a patch; answers whether the site exists. */
export async function updateSite(db: TDb, id: string, patch: Omit<TSiteUpdate, 'id'>): Promise<boolean> {
  if (Object.keys(patch).length === 0) return (await findSiteById(db, id, { includeDeleted: true })) !== null;
  const result = await db.updateTable('projects').set(patch).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Increments the version in one statement, so concurrent bumps never collide, and answers the new version. */
export async function bumpSiteVersion(db: TDb, id: string, now: number): Promise<number> {
  const row = await db
    .updateTable('projects')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', id)
    .returning('version')
    .executeTakeFirst();
  if (row === undefined) throw new Error(`Project ${id} not found`);
  return row.version;
}

export async function setSiteStatus(db: TDb, id: string, status: TSiteStatus, now: number): Promise<void> {
  await db.updateTable('projects').set({ status, updated_at: now }).where('id', '=', id).execute();
}

export async function insertFiles(db: TDb, rows: readonly TNewFile[]): Promise<void> {
  // kysely rejects an empty VALUES list.
  if (rows.length === 0) return;
  await db
    .insertInto('files')
    .values([...rows])
    .execute();
}

export async function listFilesBySite(db: TDb, siteId: string): Promise<TFileRow[]> {
  return db.selectFrom('files').selectAll().where('project_id', '=', siteId).orderBy('position').orderBy('id').execute();
}

/** A file with its site's access fields, so the file route can check slug, status, expiry and password. */
export async function findFileById(db: TDb, id: string): Promise<TFileWithSite | null> {
  const row = await db
    .selectFrom('files')
    .innerJoin('projects', 'projects.id', 'files.project_id')
    .selectAll('files')
    .select([
      'projects.slug as project_slug',
      'projects.status as project_status',
      'projects.deleted_at as project_deleted_at',
      'projects.expires_at as project_expires_at',
      'projects.password_hash as project_password_hash',
      'projects.password_version as project_password_version',
    ])
    .where('files.id', '=', id)
    .executeTakeFirst();
  return row === undefined ? null : toFileWithSite(row);
}

type TFileJoinRow = TFileRow & {
  project_slug: string;
  project_status: TSiteStatus;
  project_deleted_at: number | null;
  project_expires_at: number | null;
  project_password_hash: string | null;
  project_password_version: number;
};

function toFileWithSite(row: TFileJoinRow): TFileWithSite {
  const { project_slug, project_status, project_deleted_at, project_expires_at, project_password_hash, project_password_version, ...file } = row;
  return {
    ...file,
    site: {
      id: file.project_id,
      slug: project_slug,
      status: project_status,
      deleted_at: project_deleted_at,
      expires_at: project_expires_at,
      password_hash: project_password_hash,
      password_version: project_password_version,
    },
  };
}

/** Stores what the builder derived for a file (JSON of TDerivedMetadata). */
export async function saveFileMetadata(db: TDb, fileId: string, metadataJson: string): Promise<void> {
  await db.updateTable('files').set({ metadata: metadataJson }).where('id', '=', fileId).execute();
}

/** An unknown template renders with the universal one rather than failing the build. */
export function parseTemplateId(text: string): TTemplateId {
  const parsed = ZTemplateIdSchema.safeParse(text);
  return parsed.success ? parsed.data : 'universal';
}

/** Stored settings with defaults for missing keys; unreadable JSON falls back to the defaults. */
export function parseSiteSettings(json: string): TSiteSettings {
  const parsed = ZSiteSettingsSchema.safeParse(parseJson(json) ?? {});
  return parsed.success ? parsed.data : ZSiteSettingsSchema.parse({});
}

export function parseContactInfo(json: string): TContactInfo {
  const parsed = ZContactInfoSchema.safeParse(parseJson(json) ?? {});
  return parsed.success ? parsed.data : ZContactInfoSchema.parse({});
}

/** Null when nothing was derived yet ('{}') or the stored value is unreadable, so the builder derives again. */
export function parseDerivedMetadata(json: string): TDerivedMetadata | null {
  const parsed = ZDerivedMetadataSchema.safeParse(parseJson(json));
  return parsed.success ? parsed.data : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Removes a site from view at once (404 everywhere) and gives it an expiry the sweeper removes it by. */
export async function markSiteDeleted(db: TDb, id: string, at: { deletedAt: number; purgeFrom: number }): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set({ deleted_at: at.deletedAt, expires_at: at.purgeFrom, updated_at: at.deletedAt })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The next free position at the end of a site's files, and how many it has. */
export async function fileCountAndNextPosition(db: TDb, siteId: string): Promise<{ count: number; nextPosition: number }> {
  const row = await db
    .selectFrom('files')
    .select((eb) => [eb.fn.countAll<number | string | bigint>().as('count'), eb.fn.max<number | null>('position').as('maxPosition')])
    .where('project_id', '=', siteId)
    .executeTakeFirst();
  const count = Number(row?.count ?? 0);
  const max = row?.maxPosition;
  return { count, nextPosition: max === null || max === undefined ? 0 : Number(max) + 1 };
}

/** A file of this site, or null (a file id of another site is unknown here). */
export async function findFileOfSiteById(db: TDb, siteId: string, fileId: string): Promise<TFileRow | null> {
  return (await db.selectFrom('files').selectAll().where('id', '=', fileId).where('project_id', '=', siteId).executeTakeFirst()) ?? null;
}

/**
 * New bytes for a file, keeping its id and position. In one transaction, the favourites, comments
 * and approvals made so far are stamped with the version they were made on, then the version is
 * bumped and the metadata cleared so the next build derives the new bytes. Answers the new version,
 * null when the file is gone, or 'conflict' when another replacement of the file committed first
 * (nothing is changed then: each replacement stamps and bumps from the version it read).
 */
export async function replaceFileBytes(
  db: TDb,
  file: Pick<TFileRow, 'id' | 'project_id'>,
  next: { name: string; type: string; size: number; storageKey: string; sha256: string; kind: string; now: number },
): Promise<{ version: number; previous: Pick<TFileRow, 'storage_key' | 'sha256'> } | null | 'conflict'> {
  try {
    return await db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('files')
        .select(['version', 'storage_key', 'sha256'])
        .where('id', '=', file.id)
        .where('project_id', '=', file.project_id)
        .executeTakeFirst();
      if (!current) return null;
      const version = current.version + 1;
      const bumped = await trx
        .updateTable('files')
        .set({
          name: next.name,
          type: next.type,
          size: next.size,
          storage_key: next.storageKey,
          sha256: next.sha256,
          kind: next.kind,
          metadata: '{}',
          version,
          replaced_at: next.now,
        })
        .where('id', '=', file.id)
        .where('version', '=', current.version)
        .executeTakeFirst();
      // Another replacement committed first: this one is undone whole (its stamps never happen).
      if (bumped.numUpdatedRows === 0n) throw new ReplacedMeanwhile();
      for (const table of ['favorites', 'comments', 'approvals'] as const) {
        await trx.updateTable(table).set({ file_version: current.version }).where('file_id', '=', file.id).where('file_version', 'is', null).execute();
      }
      return { version, previous: { storage_key: current.storage_key, sha256: current.sha256 } };
    });
  } catch (err) {
    if (err instanceof ReplacedMeanwhile) return 'conflict';
    throw err;
  }
}

class ReplacedMeanwhile extends Error {}

/**
 * Removes one file of a site with its engagement (ON DELETE CASCADE) and the file's own analytics
 * rollups (their scope is the file id, no foreign key); the site's own rows keep the history.
 * Answers whether it existed.
 */
export async function deleteFileOfSite(db: TDb, siteId: string, fileId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('files').where('id', '=', fileId).where('project_id', '=', siteId).executeTakeFirst();
    if (result.numDeletedRows === 0n) return false;
    for (const table of ['analytics_daily', 'analytics_totals', 'analytics_visitor_days', 'analytics_visitors'] as const) {
      await trx.deleteFrom(table).where('project_id', '=', siteId).where('scope', '=', fileId).execute();
    }
    return true;
  });
}

/** Whether any file row (of any site) still points at these bytes or this content hash. */
export async function isStoredObjectInUse(db: TDb, by: { storageKey?: string; sha256?: string }): Promise<boolean> {
  let query = db.selectFrom('files').select('id');
  if (by.storageKey !== undefined) query = query.where('storage_key', '=', by.storageKey);
  if (by.sha256 !== undefined) query = query.where('sha256', '=', by.sha256);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** A site an operator took down, by its slug (it counts as deleted too), or null. */
/**
 * The record of a deleted site at this slug (by its creator, or taken down by an operator), while it
 * is kept: what its page may say of it. Null when the slug holds a live site or none.
 */
export async function findRemovedSiteBySlug(
  db: TDb,
  slug: string,
): Promise<Pick<TSiteRow, 'id' | 'title' | 'author_name' | 'contact_info' | 'password_hash' | 'taken_down_at'> | null> {
  const row = await db
    .selectFrom('projects')
    .select(['id', 'title', 'author_name', 'contact_info', 'password_hash', 'taken_down_at'])
    .where('slug', '=', slug)
    .where('deleted_at', 'is not', null)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Takes a live site down: deleted as far as every route is concerned (files, engagement and status
 * answer 404), while /{slug} answers 451 from the time and reason recorded here.
 */
export async function markSiteTakenDown(db: TDb, slug: string, at: { now: number; reason: string }): Promise<{ id: string } | null> {
  const row = await db
    .updateTable('projects')
    .set({ taken_down_at: at.now, takedown_reason: at.reason, deleted_at: at.now, updated_at: at.now })
    .where('slug', '=', slug)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row ?? null;
}

/** Undoes a takedown: the site is served again as it was (its record of the takedown is cleared). */
export async function restoreTakenDownSite(db: TDb, slug: string, now: number): Promise<{ id: string } | null> {
  const row = await db
    .updateTable('projects')
    .set({ taken_down_at: null, takedown_reason: null, deleted_at: null, updated_at: now })
    .where('slug', '=', slug)
    .where('taken_down_at', 'is not', null)
    .returning('id')
    .executeTakeFirst();
  return row ?? null;
}
