/**
 * The initial schema: every table of tables.ts, portable across SQLite and PostgreSQL.
 * Epoch ms are bigint, flags and small counts integer, strings and JSON text.
 *
 * Foreign keys point from child rows to their owners (creators, projects, files, upload
 * sessions). Visitor and anonymous-session ids get none: they arrive from clients and their
 * rows may be written lazily. upload_sessions.project_id gets none either: the id is reserved
 * at upload init, before the project row exists.
 */
import type { Kysely } from 'kysely';

/** Tables in creation order; `down` drops them in reverse. */
const TABLES = [
  'creators',
  'auth_sessions',
  'anonymous_sessions',
  'visitors',
  'projects',
  'files',
  'favorites',
  'comments',
  'approvals',
  'analytics_events',
  'email_collections',
  'notifications',
  'subscriptions',
  'billing_events',
  'usage',
  'messages',
  'upload_sessions',
  'upload_files',
  'upload_chunks',
  'builds',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('creators')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('avatar_url', 'text', (c) => c.notNull())
    .addColumn('external_user_id', 'text', (c) => c.unique())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auth_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_sessions_creator_idx').on('auth_sessions').column('creator_id').execute();
  await db.schema.createIndex('auth_sessions_expires_idx').on('auth_sessions').column('expires_at').execute();

  await db.schema
    .createTable('anonymous_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_by', 'text', (c) => c.references('creators.id').onDelete('set null'))
    .addColumn('claimed_at', 'bigint')
    .execute();
  await db.schema.createIndex('anonymous_sessions_expires_idx').on('anonymous_sessions').column('expires_at').execute();

  await db.schema
    .createTable('visitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('sub_line', 'text', (c) => c.notNull())
    .addColumn('tag_line', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('theme', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('contact_info', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('password_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint')
    .addColumn('owner_creator_id', 'text', (c) => c.references('creators.id').onDelete('cascade'))
    .addColumn('anonymous_session_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('projects_owner_idx').on('projects').column('owner_creator_id').execute();
  await db.schema.createIndex('projects_anonymous_session_idx').on('projects').column('anonymous_session_id').execute();
  await db.schema.createIndex('projects_expires_idx').on('projects').column('expires_at').execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_project_position_idx').on('files').columns(['project_id', 'position']).execute();

  await db.schema
    .createTable('favorites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('visitor_id', 'text', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('favorites_file_visitor_unique', ['file_id', 'visitor_id'])
    .execute();
  await db.schema.createIndex('favorites_project_idx').on('favorites').column('project_id').execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    // Replies go with the comment they answer.
    .addColumn('parent_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('visitor_id', 'text', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_file_created_idx').on('comments').columns(['file_id', 'created_at']).execute();
  await db.schema.createIndex('comments_project_created_idx').on('comments').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('comments_parent_idx').on('comments').column('parent_id').execute();

  await db.schema
    .createTable('approvals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('visitor_id', 'text', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('approvals_file_visitor_unique', ['file_id', 'visitor_id'])
    .execute();
  await db.schema.createIndex('approvals_project_idx').on('approvals').column('project_id').execute();

  await db.schema
    .createTable('analytics_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // Events outlive a deleted file so the project's totals stay right.
    .addColumn('file_id', 'text', (c) => c.references('files.id').onDelete('set null'))
    .addColumn('visitor_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('analytics_events_project_created_idx').on('analytics_events').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('analytics_events_file_idx').on('analytics_events').column('file_id').execute();

  await db.schema
    .createTable('email_collections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    // A collected address is a lead in its own right; keep it when the project goes.
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('anonymous_session_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_collections_project_idx').on('email_collections').column('project_id').execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('creator_id', 'text', (c) => c.references('creators.id').onDelete('cascade'))
    .addColumn('anonymous_session_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('cta_text', 'text', (c) => c.notNull())
    .addColumn('urgency_level', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_anonymous_session_idx').on('notifications').column('anonymous_session_id').execute();
  await db.schema.createIndex('notifications_creator_idx').on('notifications').column('creator_id').execute();
  await db.schema.createIndex('notifications_project_idx').on('notifications').column('project_id').execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().unique().references('creators.id').onDelete('cascade'))
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('stripe_customer_id', 'text')
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('current_period_end', 'bigint')
    .addColumn('last_event_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_stripe_customer_idx').on('subscriptions').column('stripe_customer_id').execute();

  // The id is Stripe's event id, so a redelivered webhook collides on the primary key.
  await db.schema
    .createTable('billing_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('processed_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('usage')
    .addColumn('creator_id', 'text', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('storage_used', 'bigint', (c) => c.notNull())
    .addColumn('projects_count', 'integer', (c) => c.notNull())
    .addColumn('collaborators_count', 'integer', (c) => c.notNull())
    .addColumn('api_requests_count', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_pk', ['creator_id', 'period'])
    .execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('company', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('rating', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('upload_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.unique())
    .addColumn('anonymous_session_id', 'text')
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('upload_sessions_expires_idx').on('upload_sessions').column('expires_at').execute();
  await db.schema.createIndex('upload_sessions_project_idx').on('upload_sessions').column('project_id').execute();

  await db.schema
    .createTable('upload_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('upload_sessions.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('chunk_size', 'integer', (c) => c.notNull())
    .addColumn('total_chunks', 'integer', (c) => c.notNull())
    .addColumn('expected_sha256', 'text')
    .addColumn('multipart_upload_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upload_files_session_position_idx').on('upload_files').columns(['session_id', 'position']).execute();

  await db.schema
    .createTable('upload_chunks')
    .addColumn('file_id', 'text', (c) => c.notNull().references('upload_files.id').onDelete('cascade'))
    .addColumn('chunk_index', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('etag', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_chunks_pk', ['file_id', 'chunk_index'])
    .execute();

  await db.schema
    .createTable('builds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    // One build per project version; the unique index also serves lookups by project.
    .addUniqueConstraint('builds_project_version_unique', ['project_id', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TABLES].reverse()) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
