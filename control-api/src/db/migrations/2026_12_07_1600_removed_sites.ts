/**
 * What became of a site whose record was removed (deleted by its creator, expired, or taken down by an
 * operator), by its address: its link then says so in plain words instead of 'not found'. Only the
 * slug, the reason and the time are kept, nothing of the site itself.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('removed_sites')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('removed_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('removed_sites').ifExists().execute();
}
