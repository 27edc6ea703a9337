/**
 * A file's group: the folder the creator dropped it in (its last folder name), null for none. Kept on
 * the site's file rows and, until an upload session completes, on the session's declared files.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').addColumn('group_name', 'text').execute();
  await db.schema.alterTable('upload_files').addColumn('group_name', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('upload_files').dropColumn('group_name').execute();
  await db.schema.alterTable('files').dropColumn('group_name').execute();
}
