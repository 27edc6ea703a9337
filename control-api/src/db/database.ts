/** Opens the database (SQLite or PostgreSQL, chosen by URL) and runs its migrations. */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { Migrator, NO_MIGRATIONS, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely/migration';
import pg from 'pg';
import * as initialMigration from './migrations/2026_11_22_0000_initial.ts';
import * as engagementMigration from './migrations/2026_11_23_1200_engagement.ts';
import * as uploadSessionResumeMigration from './migrations/2026_11_23_1000_upload_session_resume.ts';
import * as viewDedupeIndexMigration from './migrations/2026_11_24_0900_view_dedupe_index.ts';
import * as emailAddressesMigration from './migrations/2026_11_24_1700_email_addresses.ts';
import * as publicSitePagesMigration from './migrations/2026_11_24_1800_public_site_pages.ts';
import * as accountsMigration from './migrations/2026_11_26_0900_accounts.ts';
import * as analyticsRollupsMigration from './migrations/2026_11_26_0930_analytics_rollups.ts';
import * as analyticsTotalsMigration from './migrations/2026_11_26_1000_analytics_totals.ts';
import * as analyticsTotalVisitorsMigration from './migrations/2026_11_26_1200_analytics_total_visitors.ts';
import * as siteManagementMigration from './migrations/2026_11_26_1100_site_management.ts';
import * as siteHeroLayoutMigration from './migrations/2026_11_26_1110_site_hero_layout.ts';
import * as inboxMigration from './migrations/2026_11_26_1300_inbox.ts';
import * as messageEmailAttemptsMigration from './migrations/2026_11_26_1500_message_email_attempts.ts';
import * as fileGroupsMigration from './migrations/2026_11_26_1310_file_groups.ts';
import * as demoSitesMigration from './migrations/2026_11_26_1400_demo_sites.ts';
import * as billingMigration from './migrations/2026_11_26_1600_billing.ts';
import * as analyticsEventsLeanMigration from './migrations/2026_11_26_1900_analytics_events_lean.ts';
import type { Database } from './tables.ts';
import { createSqliteWriteTracker, type ReadCache } from './read-cache.ts';
import { createPostgresChangeFeed, type TPostgresChangeFeed } from './pg-change-feed.ts';
import { SAFETY_NET_PAGES, startSqliteCheckpointer } from './sqlite-checkpointer.ts';
import * as changeNotificationsMigration from './migrations/2026_11_27_0900_change_notifications.ts';
import * as sessionLinkSignInMigration from './migrations/2026_12_07_0100_session_link_sign_in.ts';
import * as commentCountsIndexMigration from './migrations/2026_11_27_1000_comment_counts_index.ts';
import * as billingSafeguardsMigration from './migrations/2026_12_07_0500_billing_safeguards.ts';
import * as siteColorModeMigration from './migrations/2026_12_07_1100_site_color_mode.ts';
import * as pendingSignUpsMigration from './migrations/2026_12_07_0200_pending_sign_ups.ts';
import * as visitorProfilesMigration from './migrations/2026_12_07_1200_visitor_profiles.ts';
import * as removedSitesMigration from './migrations/2026_12_07_1600_removed_sites.ts';
import * as visitorChangeNotificationsMigration from './migrations/2026_12_07_2100_visitor_change_notifications.ts';
import * as chunkChecksumMigration from './migrations/2026_12_07_2200_chunk_checksum.ts';
import * as workspacesMigration from './migrations/2026_12_08_0100_workspaces.ts';
import * as workspaceBillingMigration from './migrations/2026_12_08_0200_workspace_billing.ts';
import { cachePreparedStatements } from './sqlite-statement-cache.ts';
import { namePreparedStatements } from './prepared-statements.ts';

export type TDialect = 'sqlite' | 'postgres';

export interface TDatabaseHandle {
  db: Kysely<Database>;
  dialect: TDialect;
  /**
   * Hot reads kept while still true (`read-cache.ts`): on SQLite this connection sees every write (its
   * own as each statement is prepared, other processes' in `data_version`); on PostgreSQL commits
   * reach every process as notifications (`pg-change-feed.ts`).
   */
  readCache: ReadCache | undefined;
  /** PostgreSQL only: what keeps the read cache true there (tests wait for it to listen). */
  changeFeed: TPostgresChangeFeed | undefined;
  close(): Promise<void>;
}

export interface TDatabaseOptions {
  /** PostgreSQL schema to work in (created when missing); overrides a `?schema=` in the URL. */
  searchPath?: string;
  /** Most PostgreSQL connections to hold open. */
  maxConnections?: number;
  /** Told when PostgreSQL's change notifications stop (the read cache then reads through until they resume). */
  onChangeFeedError?: (err: unknown) => void;
  /**
   * Told when a pooled PostgreSQL connection fails (the server restarted, the network cut it), idle or
   * lent out. The pool drops that connection and the next query opens a new one; a query running on it
   * fails with the error; the process goes on either way.
   */
  onConnectionError?: (err: unknown) => void;
  /**
   * SQLite file: checkpoint the write-ahead log from a thread of its own (`sqlite-checkpointer.ts`)
   * instead of in the connection that commits; for the long-running processes that serve requests.
   */
  checkpointInBackground?: boolean;
  /** Told when a background checkpoint fails (the next one tries again). */
  onCheckpointError?: (message: string) => void;
}

/** Migrations in order; imported statically so bundles and tests never read the filesystem. */
const MIGRATIONS: Record<string, Migration> = {
  '2026_11_22_0000_initial': initialMigration,
  '2026_11_23_1200_engagement': engagementMigration,
  '2026_11_23_1000_upload_session_resume': uploadSessionResumeMigration,
  '2026_11_24_0900_view_dedupe_index': viewDedupeIndexMigration,
  '2026_11_24_1700_email_addresses': emailAddressesMigration,
  '2026_11_24_1800_public_site_pages': publicSitePagesMigration,
  '2026_11_26_0900_accounts': accountsMigration,
  '2026_11_26_0930_analytics_rollups': analyticsRollupsMigration,
  '2026_11_26_1000_analytics_totals': analyticsTotalsMigration,
  '2026_11_26_1100_site_management': siteManagementMigration,
  '2026_11_26_1110_site_hero_layout': siteHeroLayoutMigration,
  '2026_11_26_1200_analytics_total_visitors': analyticsTotalVisitorsMigration,
  '2026_11_26_1300_inbox': inboxMigration,
  '2026_11_26_1310_file_groups': fileGroupsMigration,
  '2026_11_26_1400_demo_sites': demoSitesMigration,
  '2026_11_26_1500_message_email_attempts': messageEmailAttemptsMigration,
  '2026_11_26_1600_billing': billingMigration,
  '2026_11_26_1900_analytics_events_lean': analyticsEventsLeanMigration,
  '2026_11_27_0900_change_notifications': changeNotificationsMigration,
  '2026_11_27_1000_comment_counts_index': commentCountsIndexMigration,
  '2026_12_07_0100_session_link_sign_in': sessionLinkSignInMigration,
  '2026_12_07_0200_pending_sign_ups': pendingSignUpsMigration,
  '2026_12_07_0500_billing_safeguards': billingSafeguardsMigration,
  '2026_12_07_1100_site_color_mode': siteColorModeMigration,
  '2026_12_07_1200_visitor_profiles': visitorProfilesMigration,
  '2026_12_07_1600_removed_sites': removedSitesMigration,
  '2026_12_07_2100_visitor_change_notifications': visitorChangeNotificationsMigration,
  '2026_12_07_2200_chunk_checksum': chunkChecksumMigration,
  '2026_12_08_0100_workspaces': workspacesMigration,
  '2026_12_08_0200_workspace_billing': workspaceBillingMigration,
};

const staticMigrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};

const PG_INT8_OID = 20;
const PG_NUMERIC_OID = 1700;
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Opens `sqlite:<path>`, a plain file path, `:memory:`, or a `postgres://` / `postgresql://` URL. */
export async function createDatabase(url: string, options: TDatabaseOptions = {}): Promise<TDatabaseHandle> {
  if (/^postgres(ql)?:\/\//i.test(url)) return openPostgres(url, options);
  return openSqlite(sqlitePathOf(url), options);
}

/** Applies every pending migration; throws naming the migration that failed. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = await createMigrator(db);
  throwOnMigrationError(await migrator.migrateToLatest());
}

/** Applies the migrations up to and including `name`: tests of an upgrade start from an older schema. */
export async function migrateUpTo(db: Kysely<Database>, name: string): Promise<void> {
  const migrator = await createMigrator(db);
  throwOnMigrationError(await migrator.migrateTo(name));
}

/** Reverts every migration (each one's `down`), leaving an empty database; for tests and resets. */
export async function rollbackAllMigrations(db: Kysely<Database>): Promise<void> {
  const migrator = await createMigrator(db);
  throwOnMigrationError(await migrator.migrateTo(NO_MIGRATIONS));
}

export async function createMigrator(db: Kysely<Database>): Promise<Migrator> {
  return new Migrator({ db, provider: staticMigrationProvider, migrationTableSchema: await postgresSchemaOf(db) });
}

function throwOnMigrationError({ error, results }: MigrationResultSet): void {
  if (error === undefined) return;
  const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? '(before any migration ran)';
  const reason = error instanceof Error ? error.message : String(error);
  throw new Error(`Migration ${failed} failed: ${reason}`, { cause: error });
}

/**
 * The schema PostgreSQL creates tables in, else undefined. kysely's migrator looks for its own tables
 * across all schemas unless told one, so a sibling schema's migration tables would fool it.
 */
async function postgresSchemaOf(db: Kysely<Database>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (schema == null) throw new Error('PostgreSQL has no current schema: check the search_path');
  return schema;
}

/** True when the error is a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = error.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

function sqlitePathOf(url: string): string {
  if (!url.startsWith('sqlite:')) return url;
  const rest = url.slice('sqlite:'.length);
  // sqlite:///abs/path and sqlite://rel/path both name a path after the slashes.
  return rest.startsWith('//') ? rest.slice(2) : rest;
}

function openSqlite(path: string, options: TDatabaseOptions): TDatabaseHandle {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) mkdirSync(dirname(resolve(path)), { recursive: true });
  const database = new SQLite(inMemory ? ':memory:' : path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // A checkpoint copies every page the log holds back into the database file. At SQLite's default
  // (every 1,000 pages) the view beacons' batches, each touching a few hundred pages, set one off at
  // nearly every commit; every 4,000 pages (16 MB), a page written by several batches is copied once.
  // The log is cut back to 32 MB after a checkpoint that found it larger.
  // With the checkpoints in a thread of their own, this connection's is only a safety net.
  const checkpointer = options.checkpointInBackground && !inMemory ? startSqliteCheckpointer(resolve(path), options.onCheckpointError ?? (() => {})) : undefined;
  database.pragma(`wal_autocheckpoint = ${checkpointer ? SAFETY_NET_PAGES : 4000}`);
  database.pragma('journal_size_limit = 33554432');
  const tracker = createSqliteWriteTracker(() => database.prepare('PRAGMA data_version'));
  const exec = database.exec.bind(database);
  database.exec = ((source: string) => {
    tracker.noteUnknownChange();
    return exec(source);
  }) as typeof database.exec;
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachePreparedStatements(database, tracker.noteStatement) }) });
  const destroy = closeOnce(db);
  return {
    db,
    dialect: 'sqlite',
    readCache: tracker.cache,
    changeFeed: undefined,
    close: async () => {
      await checkpointer?.close();
      await destroy();
    },
  };
}

async function openPostgres(url: string, options: TDatabaseOptions): Promise<TDatabaseHandle> {
  const { connectionString, schemaParam } = splitSchemaParam(url);
  const schema = options.searchPath ?? schemaParam;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`Invalid PostgreSQL schema name: ${schema}`);

  const settings: pg.ClientConfig = {
    connectionString,
    types: { getTypeParser: numericAwareTypeParser },
    // Set at connection start-up, so every pooled connection sees the schema without an extra round trip.
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
  };
  const pool = new pg.Pool({ ...settings, max: options.maxConnections ?? 10 });
  // Without listeners a connection's 'error' event (the server restarting, the network cutting it) would
  // end the process: the pool emits one for an idle connection, the connection itself for one lent out
  // (between a transaction's statements, say). Each connection reports its own failure once.
  pool.on('error', () => {});
  const changeFeed = createPostgresChangeFeed({
    connect: async () => {
      const client = new pg.Client({ ...settings, keepAlive: true });
      await client.connect();
      return client;
    },
    onError: options.onChangeFeedError,
  });
  pool.on('connect', (client) => {
    client.on('error', (err) => options.onConnectionError?.(err));
    changeFeed.watch(client);
    namePreparedStatements(client);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (schema !== undefined) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
    else await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const destroy = closeOnce(db);
  return {
    db,
    dialect: 'postgres',
    readCache: changeFeed.cache,
    changeFeed,
    close: async () => {
      await changeFeed.close();
      await destroy();
    },
  };
}

/** Takes our `?schema=` out of the URL (libpq does not know it); other URLs pass through untouched. */
function splitSchemaParam(url: string): { connectionString: string; schemaParam: string | undefined } {
  if (!/[?&]schema=/.test(url)) return { connectionString: url, schemaParam: undefined };
  const parsed = new URL(url);
  const schemaParam = parsed.searchParams.get('schema') ?? undefined;
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), schemaParam };
}

/**
 * Epoch-ms columns are bigint and counts are bigint/numeric; pg returns those as strings by default.
 * Parsing them per pool (not via the global pg.types) leaves other pg users in the process untouched.
 * Epoch ms and row counts stay far below 2^53, so Number is exact.
 */
const numericAwareTypeParser: typeof pg.types.getTypeParser = (id, format) => {
  if ((id === PG_INT8_OID || id === PG_NUMERIC_OID) && format !== 'binary') return (value: string) => Number(value);
  return pg.types.getTypeParser(id, format);
};

function closeOnce(db: Kysely<Database>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= db.destroy());
}
