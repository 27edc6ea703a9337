/**
 * PostgreSQL only: changes to the visitors table notify `dropsite_changes` too, so a visitor's name
 * and address (read for every favourite, comment and approval they make) can be answered from each
 * process's read cache, and a name saved through any process reaches the others' next writes.
 */
import { PostgresAdapter, type Kysely } from 'kysely';
import { notifyChangesOf, stopNotifyingChangesOf } from './2026_11_27_0900_change_notifications.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await notifyChangesOf(db, 'visitors');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await stopNotifyingChangesOf(db, 'visitors');
}
