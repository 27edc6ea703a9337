/** Fresh, migrated databases for tests: SQLite in a temp file, PostgreSQL in a throw-away schema. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Insertable, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe } from 'vitest';
import { uploadKey } from '@dropsite/shared';
import { isPostgresUp, requireService } from './services.ts';
import { type TConfig, createDatabase, type TDatabaseHandle } from '@dropsite/control-api';
import {
  migrateToLatest,
  type TBuildRow,
  type TDialect,
  newId,
  type TNewFile,
  type TNewSite,
  type UploadFilesTable,
  type UploadSessionsTable,
} from '@dropsite/control-api/internals';

export type TTestDatabase = TDatabaseHandle & { cleanup(): Promise<void> };

export const TEST_DIALECTS: readonly TDialect[] = ['sqlite', 'postgres'];
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let postgresAvailable: Promise<boolean> | undefined;

/**
 * Whether the dialect's tests can run; use with describe.skipIf. A missing PostgreSQL skips them
 * with a printed reason locally and throws on CI (see requireService). Probed once per process.
 */
export async function isDialectAvailable(dialect: TDialect): Promise<boolean> {
  if (dialect === 'sqlite') return true;
  postgresAvailable ??= requireService(`PostgreSQL at ${TEST_POSTGRES_URL}`, () => isPostgresUp(TEST_POSTGRES_URL));
  return postgresAvailable;
}

/** The database of one dialect's describe block (describeEachDialect): there once the block's tests run. */
export interface TDialectDatabase {
  readonly db: TDatabaseHandle['db'];
  readonly dialect: TDialect;
}

/**
 * The same tests on every dialect: one describe block each, titled `title (dialect)`, skipped where
 * the dialect is not available (isDialectAvailable), with a fresh migrated database created before
 * its tests and removed after them.
 */
export async function describeEachDialect(title: string, body: (handle: TDialectDatabase, dialect: TDialect) => void): Promise<void> {
  for (const dialect of TEST_DIALECTS) {
    const available = await isDialectAvailable(dialect);
    describe.skipIf(!available)(`${title} (${dialect})`, () => {
      let database: TTestDatabase | undefined;
      beforeAll(async () => {
        database = await createTestDatabase(dialect);
      });
      afterAll(async () => {
        await database?.cleanup();
      });
      body(
        {
          dialect,
          get db() {
            if (!database) throw new Error(`The ${dialect} database is there once the tests run, not while they are declared.`);
            return database.db;
          },
        },
        dialect,
      );
    });
  }
}

/**
 * Where a test app of the dialect keeps its rows: on PostgreSQL a throw-away schema named after the
 * suite (the config points the app at it, `drop` removes it once the app is closed); on SQLite the
 * app's own temp folder, which closing it removes.
 */
export function testAppDatabase(dialect: TDialect, suite: string): { config: Partial<TConfig>; drop(): Promise<void> } {
  if (dialect !== 'postgres') return { config: {}, drop: async () => {} };
  const schema = `test_${suite}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  return {
    config: { databaseUrl: `${TEST_POSTGRES_URL}?schema=${schema}` },
    async drop() {
      const handle = await createDatabase(TEST_POSTGRES_URL);
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(handle.db);
      await handle.close();
    },
  };
}

export async function createTestDatabase(dialect: TDialect): Promise<TTestDatabase> {
  return dialect === 'sqlite' ? createSqliteTestDatabase() : createPostgresTestDatabase();
}

async function createSqliteTestDatabase(): Promise<TTestDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'dropsite-db-'));
  const handle = await createDatabase(`sqlite:${join(dir, 'test.sqlite')}`);
  await migrateOrClose(handle);
  return {
    ...handle,
    cleanup: async () => {
      await handle.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function createPostgresTestDatabase(): Promise<TTestDatabase> {
  const schema = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const handle = await createDatabase(TEST_POSTGRES_URL, { searchPath: schema, maxConnections: 4 });
  const dropSchema = async () => {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(handle.db);
  };
  try {
    await migrateToLatest(handle.db);
  } catch (error) {
    await dropSchema().finally(() => handle.close());
    throw error;
  }
  return {
    ...handle,
    cleanup: async () => {
      try {
        await dropSchema();
      } finally {
        await handle.close();
      }
    },
  };
}

async function migrateOrClose(handle: TDatabaseHandle): Promise<void> {
  try {
    await migrateToLatest(handle.db);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

const FIXTURE_TIME = 1_763_800_000_000;

/** A valid project row; unique id and slug unless overridden. */
export function makeSiteRow(overrides: Partial<TNewSite> = {}): TNewSite {
  const id = newId();
  return {
    id,
    slug: `site-${id.toLowerCase().replace(/[^a-z0-9]/g, '')}`,
    title: 'Test site',
    description: '',
    sub_line: '',
    tag_line: '',
    author_name: '',
    template: 'universal',
    theme: 'professional',
    settings: '{}',
    contact_info: '{}',
    password_hash: null,
    password_version: 0,
    expires_at: null,
    owner_creator_id: null,
    anonymous_session_id: null,
    status: 'building',
    version: 1,
    created_at: FIXTURE_TIME,
    updated_at: FIXTURE_TIME,
    deleted_at: null,
    ...overrides,
  };
}

/** The build row of a project version as first recorded, queued and not yet taken by a worker (without its id). */
export function makeQueuedBuildRow(projectId: string, version: number, createdAt: number): Omit<TBuildRow, 'id'> {
  return {
    project_id: projectId,
    version,
    status: 'queued',
    progress: 0,
    stage: 'queued',
    error: null,
    attempts: 0,
    created_at: createdAt,
    started_at: null,
    finished_at: null,
  };
}

/** A valid file row of the project at the given position. */
export function makeFileRow(projectId: string, position: number, overrides: Partial<TNewFile> = {}): TNewFile {
  const id = newId();
  return {
    id,
    project_id: projectId,
    name: `file-${position}.jpg`,
    type: 'image/jpeg',
    size: 1024,
    storage_key: uploadKey(projectId, id),
    sha256: 'a'.repeat(64),
    kind: 'image',
    metadata: '{}',
    position,
    created_at: FIXTURE_TIME + position,
    ...overrides,
  };
}

/** A valid open chunked upload session row (its project not created yet); unique id and slug unless overridden. */
export function makeUploadSessionRow(overrides: Partial<Insertable<UploadSessionsTable>> = {}): Insertable<UploadSessionsTable> {
  const id = newId();
  return {
    id,
    project_id: newId(),
    protocol: 'chunked',
    status: 'open',
    idempotency_key: null,
    anonymous_session_id: null,
    form: '{}',
    created_at: FIXTURE_TIME,
    expires_at: FIXTURE_TIME + 1000,
    completed_at: null,
    project_slug: `slug${id.toLowerCase().replace(/[^a-z0-9]/g, '')}`,
    request_fingerprint: 'f',
    lease_until: null,
    ...overrides,
  };
}

/** A valid file row of the upload session at the given position: 30 bytes in three 10-byte chunks, none received. */
export function makeUploadFileRow(sessionId: string, position = 0, overrides: Partial<Insertable<UploadFilesTable>> = {}): Insertable<UploadFilesTable> {
  return {
    id: newId(),
    session_id: sessionId,
    name: 'a.bin',
    type: '',
    size: 30,
    chunk_size: 10,
    total_chunks: 3,
    expected_sha256: null,
    multipart_upload_id: null,
    position,
    sha256: null,
    assembled_at: null,
    ...overrides,
  };
}

/** A plugin that counts the statements run through it: `db.withPlugin(counter.plugin)`, then `counter.count()`. */
export function statementCounter(): { plugin: KyselyPlugin; count(): number } {
  let statements = 0;
  return {
    plugin: {
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    },
    count: () => statements,
  };
}
