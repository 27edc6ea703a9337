/**
 * All-time views and downloads per site and scope ('' the whole site, else a file id), kept with
 * the daily rollups: the creator's list sums a thousand sites' traffic and a site's details every
 * file's, and each is then one row instead of a row per day. The creator's sites are listed
 * newest first from an index that has them in that order.
 */
import { SqliteAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  let table = db.schema
    .createTable('analytics_totals')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('views', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('downloads', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_totals_pk', ['project_id', 'scope']);
  // Upserted with every batch of events: on SQLite one b-tree keyed by the primary key (see the rollups' migration).
  if (db.getExecutor().adapter instanceof SqliteAdapter) table = table.modifyEnd(sql`without rowid`);
  await table.execute();
  await sql`
    insert into analytics_totals (project_id, scope, views, downloads)
    select project_id, scope, sum(views), sum(downloads) from analytics_daily group by project_id, scope`.execute(db);
  await db.schema.createIndex('projects_owner_created_idx').on('projects').columns(['owner_creator_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('projects_owner_created_idx').ifExists().execute();
  await db.schema.dropTable('analytics_totals').ifExists().execute();
}
