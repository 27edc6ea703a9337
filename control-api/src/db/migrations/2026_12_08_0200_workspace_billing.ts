/**
 * The subscription and usage belong to the workspace, not the account: `subscriptions.creator_id` and
 * `usage.creator_id` become `workspace_id`. The values stay as they are (a personal workspace's id is
 * its account's), the subscription stays one per workspace and usage one row per workspace and month,
 * and both go with their workspace when it is deleted (they referenced the account before).
 *
 * PostgreSQL renames the column and swaps the foreign key. SQLite cannot change a foreign key in place:
 * each table is rebuilt with the same columns, copied, and its indexes made again.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

async function createSubscriptions(db: Kysely<unknown>, table: string, owner: 'workspace_id' | 'creator_id'): Promise<void> {
  const target = owner === 'workspace_id' ? 'workspaces.id' : 'creators.id';
  await db.schema
    .createTable(table)
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn(owner, 'text', (c) => c.notNull().unique().references(target).onDelete('cascade'))
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('stripe_customer_id', 'text')
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('current_period_end', 'bigint')
    .addColumn('last_event_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('billing_interval', 'text')
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('trial_end', 'bigint')
    .addColumn('trial_used_at', 'bigint')
    .addColumn('grace_period_end', 'bigint')
    .addColumn('last_checkout_session_id', 'text')
    .addColumn('open_checkout_session_id', 'text')
    .addColumn('open_checkout_price', 'text')
    .execute();
}

async function createUsage(db: Kysely<unknown>, table: string, owner: 'workspace_id' | 'creator_id'): Promise<void> {
  const target = owner === 'workspace_id' ? 'workspaces.id' : 'creators.id';
  await db.schema
    .createTable(table)
    .addColumn(owner, 'text', (c) => c.notNull().references(target).onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('storage_used', 'bigint', (c) => c.notNull())
    .addColumn('projects_count', 'integer', (c) => c.notNull())
    .addColumn('collaborators_count', 'integer', (c) => c.notNull())
    .addColumn('api_requests_count', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('derived_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_pk', [owner, 'period'])
    .execute();
}

const SUBSCRIPTION_COLUMNS =
  'id, plan_id, status, stripe_customer_id, stripe_subscription_id, current_period_end, last_event_at, created_at, updated_at, billing_interval, cancel_at_period_end, trial_end, trial_used_at, grace_period_end, last_checkout_session_id, open_checkout_session_id, open_checkout_price';
const USAGE_COLUMNS = 'period, storage_used, projects_count, collaborators_count, api_requests_count, updated_at, derived_bytes';

/** SQLite: both tables rebuilt with `to` as their owner column (copied from `from`), indexes made again. */
async function rebuildSqlite(db: Kysely<unknown>, from: 'creator_id' | 'workspace_id', to: 'creator_id' | 'workspace_id'): Promise<void> {
  await createSubscriptions(db, 'subscriptions_next', to);
  await sql`insert into subscriptions_next (${sql.raw(`${to}, ${SUBSCRIPTION_COLUMNS}`)}) select ${sql.raw(`${from}, ${SUBSCRIPTION_COLUMNS}`)} from subscriptions`.execute(db);
  await db.schema.dropTable('subscriptions').execute();
  await db.schema.alterTable('subscriptions_next').renameTo('subscriptions').execute();
  await db.schema.createIndex('subscriptions_stripe_customer_idx').on('subscriptions').column('stripe_customer_id').execute();
  await db.schema.createIndex('subscriptions_stripe_subscription_idx').on('subscriptions').column('stripe_subscription_id').execute();

  await createUsage(db, 'usage_next', to);
  await sql`insert into usage_next (${sql.raw(`${to}, ${USAGE_COLUMNS}`)}) select ${sql.raw(`${from}, ${USAGE_COLUMNS}`)} from usage`.execute(db);
  await db.schema.dropTable('usage').execute();
  await db.schema.alterTable('usage_next').renameTo('usage').execute();
}

/** PostgreSQL: the column renamed (its unique constraint, primary key and indexes follow it), the foreign key swapped. */
async function renamePostgres(db: Kysely<unknown>, from: 'creator_id' | 'workspace_id', to: 'creator_id' | 'workspace_id'): Promise<void> {
  const target = to === 'workspace_id' ? 'workspaces' : 'creators';
  for (const table of ['subscriptions', 'usage']) {
    await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.ref(`${table}_${from}_fkey`)}`.execute(db);
    await db.schema.alterTable(table).renameColumn(from, to).execute();
    await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_${to}_fkey`)} foreign key (${sql.ref(to)}) references ${sql.table(target)} (id) on delete cascade`.execute(
      db,
    );
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await renamePostgres(db, 'creator_id', 'workspace_id');
  else await rebuildSqlite(db, 'creator_id', 'workspace_id');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // A team workspace's rows have no account to go back to.
  await sql`delete from subscriptions where workspace_id not in (select id from creators)`.execute(db);
  await sql`delete from usage where workspace_id not in (select id from creators)`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) await renamePostgres(db, 'workspace_id', 'creator_id');
  else await rebuildSqlite(db, 'workspace_id', 'creator_id');
}
