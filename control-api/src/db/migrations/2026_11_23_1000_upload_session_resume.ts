/**
 * What resumable upload sessions need beyond the initial model:
 * - upload_sessions.project_slug: the site link is promised at init, so it is reserved there (unique).
 * - upload_sessions.request_fingerprint: an init retried with the same Idempotency-Key must be the same request.
 * - upload_sessions.lease_until: who is completing a session, and until when; a crashed completer's lease runs out.
 * - upload_files.sha256 / assembled_at: a file assembled and verified once is not assembled again when a
 *   completion is retried after a crash.
 * SQLite adds one column per ALTER TABLE, so each column is its own statement.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('upload_sessions').addColumn('project_slug', 'text').execute();
  await db.schema.alterTable('upload_sessions').addColumn('request_fingerprint', 'text').execute();
  await db.schema.alterTable('upload_sessions').addColumn('lease_until', 'bigint').execute();
  await db.schema.createIndex('upload_sessions_project_slug_unique').on('upload_sessions').column('project_slug').unique().execute();
  await db.schema.alterTable('upload_files').addColumn('sha256', 'text').execute();
  await db.schema.alterTable('upload_files').addColumn('assembled_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('upload_sessions_project_slug_unique').ifExists().execute();
  await db.schema.alterTable('upload_files').dropColumn('assembled_at').execute();
  await db.schema.alterTable('upload_files').dropColumn('sha256').execute();
  await db.schema.alterTable('upload_sessions').dropColumn('lease_until').execute();
  await db.schema.alterTable('upload_sessions').dropColumn('request_fingerprint').execute();
  await db.schema.alterTable('upload_sessions').dropColumn('project_slug').execute();
}
