/**
 * The view beacon asks, for every view, whether this visitor's view of this file (or of the site)
 * was already counted within the window. The index it had (visitor, project, created_at) made
 * SQLite visit every event of the visitor on the site and read each row for its file and type;
 * this one answers with equality on everything but the time.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('analytics_events_visitor_view_idx').on('analytics_events').columns(['visitor_id', 'project_id', 'file_id', 'type', 'created_at']).execute();
  await db.schema.dropIndex('analytics_events_visitor_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('analytics_events_visitor_idx').on('analytics_events').columns(['visitor_id', 'project_id', 'created_at']).execute();
  await db.schema.dropIndex('analytics_events_visitor_view_idx').ifExists().execute();
}
