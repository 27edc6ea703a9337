/** Password and expiry bookkeeping of sites, for the unlock call and the sweeper. */
import type { Kysely } from 'kysely';
import type { Database, TRemovedSiteReason } from '../db/tables.ts';

type TDb = Kysely<Database>;

/** Sets (or, with null, removes) a site's password and bumps its version in one statement, revoking every earlier unlock. */
export async function setSitePasswordHash(db: TDb, siteId: string, passwordHash: string | null, now: number): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set((eb) => ({ password_hash: passwordHash, password_version: eb('password_version', '+', 1), updated_at: now }))
    .where('id', '=', siteId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Stores the same password again under a newer hash scheme, only if the hash is still the one that
 * was checked (a concurrent change wins). The version is kept: this revokes nothing.
 */
export async function upgradeSitePasswordHash(db: TDb, siteId: string, checkedHash: string, newHash: string): Promise<boolean> {
  const result = await db.updateTable('projects').set({ password_hash: newHash }).where('id', '=', siteId).where('password_hash', '=', checkedHash).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Sites whose expiry is at or before `before`, oldest first. */
export async function listSitesExpiredBefore(db: TDb, before: number, limit: number): Promise<Array<{ id: string; slug: string }>> {
  return db
    .selectFrom('projects')
    .select(['id', 'slug'])
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', before)
    .orderBy('expires_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function listContentHashesOfSite(db: TDb, siteId: string): Promise<string[]> {
  const rows = await db.selectFrom('files').select('sha256').distinct().where('project_id', '=', siteId).execute();
  return rows.map((r) => r.sha256);
}

/** Whether a file of another site has this content (derived images are shared by content hash). */
export async function isContentHashUsedElsewhere(db: TDb, sha256: string, siteId: string): Promise<boolean> {
  const row = await db.selectFrom('files').select('id').where('sha256', '=', sha256).where('project_id', '!=', siteId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Removes a site's record, leaving at its address only why it went (removed_sites): deleted by its
 * creator, taken down, or expired. Both in one transaction.
 */
export async function deleteSiteRow(db: TDb, siteId: string, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('projects').select(['slug', 'deleted_at', 'taken_down_at']).where('id', '=', siteId).executeTakeFirst();
    if (!row) return;
    const reason: TRemovedSiteReason = row.taken_down_at !== null ? 'taken-down' : row.deleted_at !== null ? 'removed' : 'expired';
    await trx
      .insertInto('removed_sites')
      .values({ slug: row.slug, reason, removed_at: now })
      .onConflict((oc) => oc.column('slug').doUpdateSet({ reason, removed_at: now }))
      .execute();
    await trx.deleteFrom('projects').where('id', '=', siteId).execute();
  });
}

/** Why the site that was at this address is gone, once its record was removed; null when none was. */
export async function findRemovedSiteReason(db: TDb, slug: string): Promise<TRemovedSiteReason | null> {
  const row = await db.selectFrom('removed_sites').select('reason').where('slug', '=', slug).executeTakeFirst();
  return row?.reason ?? null;
}
