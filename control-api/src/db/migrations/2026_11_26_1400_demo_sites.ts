/**
 * The demo sites (one per template, at the catalogue's reserved paths): what each was last built
 * from. `fingerprint` is the hash of its sample project and of the site template's build, so a
 * start-up that finds every fingerprint current does nothing, and a changed sample or template
 * rebuilds the demos once.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('demo_sites')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('built_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('demo_sites').ifExists().execute();
}
