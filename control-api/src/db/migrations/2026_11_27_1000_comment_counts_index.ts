/**
 * Every engagement-state call counts a site's comments by file (`select file_id, count(*) from
 * comments where project_id = ? group by file_id`). By (project_id, created_at) that read every
 * comment row of the site, so the call grew slower with each comment. By (project_id, file_id) it
 * is counted from the index alone, already grouped.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('comments_project_file_idx').ifNotExists().on('comments').columns(['project_id', 'file_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('comments_project_file_idx').ifExists().execute();
}
