/**
 * Engagement, access and notifications: a table for server secrets (the unlock-cookie key when
 * SESSION_SECRET is not set, shared by every API process through the database), product events
 * of the email modal, delivery bookkeeping on notifications, and the indexes the engagement
 * calls read through (and one index fewer to write per view or download).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('product_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text')
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('visitor_id', 'text')
    .addColumn('anonymous_session_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('product_events_name_created_idx').on('product_events').columns(['name', 'created_at']).execute();

  await db.schema
    .alterTable('notifications')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('notifications').addColumn('last_error', 'text').execute();
  await db.schema.createIndex('notifications_outbound_idx').on('notifications').columns(['channel', 'sent_at', 'project_id']).execute();

  await db.schema.createIndex('analytics_events_project_type_idx').on('analytics_events').columns(['project_id', 'type', 'file_id']).execute();
  await db.schema.createIndex('analytics_events_visitor_idx').on('analytics_events').columns(['visitor_id', 'project_id', 'created_at']).execute();
  await db.schema.createIndex('analytics_events_file_created_idx').on('analytics_events').columns(['file_id', 'created_at']).execute();
  // Its one column leads the index above: every view and download wrote one more b-tree page for nothing.
  await db.schema.dropIndex('analytics_events_file_idx').execute();
  await db.schema.createIndex('favorites_visitor_project_idx').on('favorites').columns(['visitor_id', 'project_id']).execute();
  await db.schema.createIndex('approvals_visitor_project_idx').on('approvals').columns(['visitor_id', 'project_id']).execute();
  await db.schema.createIndex('comments_visitor_idx').on('comments').column('visitor_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('analytics_events_file_idx').on('analytics_events').column('file_id').execute();
  for (const index of [
    'comments_visitor_idx',
    'approvals_visitor_project_idx',
    'favorites_visitor_project_idx',
    'analytics_events_file_created_idx',
    'analytics_events_visitor_idx',
    'analytics_events_project_type_idx',
    'notifications_outbound_idx',
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.alterTable('notifications').dropColumn('last_error').execute();
  await db.schema.alterTable('notifications').dropColumn('attempts').execute();
  await db.schema.dropTable('product_events').ifExists().execute();
  await db.schema.dropTable('server_secrets').ifExists().execute();
}
