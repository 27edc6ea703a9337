/**
 * Since the daily rollups, no query reads analytics_events by (project, type, file): the panel's
 * counts come from analytics_daily and analytics_totals. The index only made every event's insert
 * touch one more B-tree page (each view beacon writes an event), so it goes.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('analytics_events_project_type_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('analytics_events_project_type_idx').on('analytics_events').columns(['project_id', 'type', 'file_id']).execute();
}
