/**
 * Managing a published site: a file's version (bumped when its bytes are replaced) and the version
 * each favourite, comment and approval was made on, so a replaced file keeps its history marked;
 * and an operator's takedown of a site, with when and why.
 *
 * Engagement rows carry `file_version` null while they belong to the file's current version; a
 * replacement stamps the rows made so far with the version they were made on. So the hot insert
 * paths of engagement need not read the file's version.
 */
import type { Kysely } from 'kysely';

const ENGAGEMENT_TABLES = ['favorites', 'comments', 'approvals'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('files')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('files').addColumn('replaced_at', 'bigint').execute();
  for (const table of ENGAGEMENT_TABLES) {
    await db.schema.alterTable(table).addColumn('file_version', 'integer').execute();
  }
  await db.schema.alterTable('projects').addColumn('taken_down_at', 'bigint').execute();
  await db.schema.alterTable('projects').addColumn('takedown_reason', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('takedown_reason').execute();
  await db.schema.alterTable('projects').dropColumn('taken_down_at').execute();
  for (const table of ENGAGEMENT_TABLES) {
    await db.schema.alterTable(table).dropColumn('file_version').execute();
  }
  await db.schema.alterTable('files').dropColumn('replaced_at').execute();
  await db.schema.alterTable('files').dropColumn('version').execute();
}
