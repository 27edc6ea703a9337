/**
 * PostgreSQL only: every statement that changes a table whose answers the API caches (a site, its
 * files, their comments) notifies `dropsite_changes` with `{schema}.{table}` when its transaction
 * commits, so each API process drops what it cached from that table (`db/pg-change-feed.ts`).
 * Deletes that cascade into these tables fire their triggers too. SQLite needs none: the one process
 * that writes sees its own statements, and others' commits show in `data_version`.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const TABLES = ['projects', 'files', 'comments'];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create or replace function dropsite_notify_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('dropsite_changes', tg_table_schema || '.' || tg_table_name);
      return null;
    end
    $$`.execute(db);
  for (const table of TABLES) await notifyChangesOf(db, table);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const table of TABLES) await stopNotifyingChangesOf(db, table);
  await sql`drop function if exists dropsite_notify_change()`.execute(db);
}

/** PostgreSQL: every statement changing `table` notifies `dropsite_changes` (the function `up` made). */
export async function notifyChangesOf(db: Kysely<unknown>, table: string): Promise<void> {
  await sql`create trigger dropsite_notify_change after insert or update or delete or truncate on ${sql.table(table)}
    for each statement execute function dropsite_notify_change()`.execute(db);
}

export async function stopNotifyingChangesOf(db: Kysely<unknown>, table: string): Promise<void> {
  await sql`drop trigger if exists dropsite_notify_change on ${sql.table(table)}`.execute(db);
}
