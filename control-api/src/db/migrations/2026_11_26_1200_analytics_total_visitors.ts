/**
 * All-time distinct visitors per site and scope on the totals row: a popular site's panel and
 * details read one number instead of counting every visitor it ever had. Kept by the batcher as a
 * visitor's first row in analytics_visitors is created; here counted from those rows.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('analytics_totals')
    .addColumn('unique_visitors', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    update analytics_totals set unique_visitors = (
      select count(*) from analytics_visitors v where v.project_id = analytics_totals.project_id and v.scope = analytics_totals.scope
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('analytics_totals').dropColumn('unique_visitors').execute();
}
