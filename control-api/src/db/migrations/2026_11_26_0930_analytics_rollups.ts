/**
 * Daily rollups of views and downloads, so a creator's analytics never scan raw events (a popular
 * site has millions), and a column that marks a comment as the creator's reply.
 *
 * - analytics_daily: per site, scope ('' the whole site, else a file id) and UTC day (days since
 *   the epoch): views, downloads and the distinct visitors of that day. The site's row counts page
 *   views and every download (each file's and the ZIP's), as the panel always has.
 * - analytics_visitor_days: one row per site, scope, day and visitor that day. Inserting it is how
 *   a batch learns, exactly and under concurrent writers, which visitors are new for a day.
 * - analytics_visitors: one row per site, scope and visitor, with the last day seen: all-time
 *   distinct visitors are a count of rows, and those of the last N days a range count on last_day
 *   (a visitor was seen within the last N days exactly when their last day is in them).
 *
 * File scopes carry no foreign key: a deleted or replaced file's history stays in its site's totals.
 * Existing analytics_events are rolled up here, so the figures read the same before and after.
 */
import { SqliteAdapter, sql, type Kysely } from 'kysely';

const DAY = sql`(created_at / 86400000)`;

/**
 * On SQLite these tables are WITHOUT ROWID: every write of a view or download upserts them, and a
 * table keyed by its primary key keeps one b-tree per row instead of a rowid table and its key's index.
 */
function keyedByPrimaryKey<T extends { modifyEnd(modifier: ReturnType<typeof sql>): T }>(db: Kysely<unknown>, table: T): T {
  return db.getExecutor().adapter instanceof SqliteAdapter ? table.modifyEnd(sql`without rowid`) : table;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await keyedByPrimaryKey(
    db,
    db.schema
      .createTable('analytics_daily')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('views', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('downloads', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('unique_visitors', 'bigint', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('analytics_daily_pk', ['project_id', 'scope', 'day']),
  ).execute();

  await keyedByPrimaryKey(
    db,
    db.schema
      .createTable('analytics_visitor_days')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('visitor_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('analytics_visitor_days_pk', ['project_id', 'scope', 'day', 'visitor_id']),
  ).execute();

  await keyedByPrimaryKey(
    db,
    db.schema
      .createTable('analytics_visitors')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('visitor_id', 'text', (c) => c.notNull())
      .addColumn('last_day', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('analytics_visitors_pk', ['project_id', 'scope', 'visitor_id']),
  ).execute();
  await db.schema.createIndex('analytics_visitors_last_day_idx').on('analytics_visitors').columns(['project_id', 'scope', 'last_day']).execute();

  // The rollups of what was recorded so far. A site's scope counts every event of the site; a file's, its own.
  await sql`
    insert into analytics_daily (project_id, scope, day, views, downloads, unique_visitors)
    select project_id, '', ${DAY},
      sum(case when type = 'view' and file_id is null then 1 else 0 end),
      sum(case when type = 'download' then 1 else 0 end),
      0
    from analytics_events group by project_id, ${DAY}`.execute(db);
  await sql`
    insert into analytics_daily (project_id, scope, day, views, downloads, unique_visitors)
    select project_id, file_id, ${DAY},
      sum(case when type = 'view' then 1 else 0 end),
      sum(case when type = 'download' then 1 else 0 end),
      0
    from analytics_events where file_id is not null group by project_id, file_id, ${DAY}`.execute(db);
  await sql`
    insert into analytics_visitor_days (project_id, scope, day, visitor_id)
    select distinct project_id, '', ${DAY}, visitor_id from analytics_events where visitor_id is not null`.execute(db);
  await sql`
    insert into analytics_visitor_days (project_id, scope, day, visitor_id)
    select distinct project_id, file_id, ${DAY}, visitor_id from analytics_events where visitor_id is not null and file_id is not null`.execute(db);
  await sql`
    insert into analytics_visitors (project_id, scope, visitor_id, last_day)
    select project_id, scope, visitor_id, max(day) from analytics_visitor_days group by project_id, scope, visitor_id`.execute(db);
  await sql`
    update analytics_daily set unique_visitors = (
      select count(*) from analytics_visitor_days v
      where v.project_id = analytics_daily.project_id and v.scope = analytics_daily.scope and v.day = analytics_daily.day
    )`.execute(db);

  // A reply the site's creator wrote from the dashboard: the creator's id (its visitor id is empty). No
  // foreign key: SQLite cannot drop a column that has one, and the site (hence the reply) goes with its creator.
  await db.schema.alterTable('comments').addColumn('creator_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('comments').dropColumn('creator_id').execute();
  await db.schema.dropTable('analytics_visitors').ifExists().execute();
  await db.schema.dropTable('analytics_visitor_days').ifExists().execute();
  await db.schema.dropTable('analytics_daily').ifExists().execute();
}
