/**
 * Visitors name themselves once per device (and may leave an address the site's creator sees):
 * the visitor row keeps what they gave, and each favourite, comment and approval keeps the address
 * given at the time beside the name it already kept. Rows made before stay null (they show the
 * generated 'User 9fQk' name they were stored with).
 *
 * The creator's own replies are not client comments: every count of comments leaves them out, so the
 * counting indexes carry creator_id and still answer from the index alone.
 */
import type { Kysely } from 'kysely';

const ENGAGEMENT_TABLES = ['favorites', 'comments', 'approvals'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('visitors').addColumn('display_name', 'text').execute();
  await db.schema.alterTable('visitors').addColumn('email', 'text').execute();
  for (const table of ENGAGEMENT_TABLES) await db.schema.alterTable(table).addColumn('user_email', 'text').execute();
  await db.schema.createIndex('comments_project_file_author_idx').ifNotExists().on('comments').columns(['project_id', 'file_id', 'creator_id']).execute();
  await db.schema.createIndex('comments_file_author_idx').ifNotExists().on('comments').columns(['file_id', 'creator_id']).execute();
  await db.schema.dropIndex('comments_project_file_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('comments_project_file_idx').ifNotExists().on('comments').columns(['project_id', 'file_id']).execute();
  await db.schema.dropIndex('comments_file_author_idx').ifExists().execute();
  await db.schema.dropIndex('comments_project_file_author_idx').ifExists().execute();
  for (const table of ENGAGEMENT_TABLES) await db.schema.alterTable(table).dropColumn('user_email').execute();
  await db.schema.alterTable('visitors').dropColumn('email').execute();
  await db.schema.alterTable('visitors').dropColumn('display_name').execute();
}
