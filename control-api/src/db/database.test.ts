import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  describeEachDialect,
  isDialectAvailable,
  makeFileRow,
  makeSiteRow,
  makeQueuedBuildRow,
  makeUploadFileRow,
  makeUploadSessionRow,
  TEST_POSTGRES_URL,
} from '@dropsite/testkit/control-api/test-database';
import { createDatabase, isUniqueViolation, migrateToLatest, rollbackAllMigrations, type TDatabaseHandle } from './database.ts';
import { newId } from './ids.ts';

const ALL_TABLES = [
  'account_tokens',
  'analytics_daily',
  'analytics_events',
  'analytics_totals',
  'analytics_visitor_days',
  'analytics_visitors',
  'anonymous_sessions',
  'approvals',
  'audit_events',
  'auth_sessions',
  'billing_events',
  'builds',
  'comments',
  'creators',
  'demo_sites',
  'email_addresses',
  'email_collections',
  'email_recipient_requests',
  'favorites',
  'files',
  'messages',
  'newsletter_subscribers',
  'notifications',
  'pending_site_rebuilds',
  'product_events',
  'projects',
  'removed_sites',
  'server_secrets',
  'subscriptions',
  'trial_address_slots',
  'upload_chunks',
  'upload_files',
  'upload_sessions',
  'usage',
  'visitors',
  'workspace_invitations',
  'workspace_members',
  'workspaces',
];

const NOW = 1_763_800_000_000;

async function listTables(handle: Pick<TDatabaseHandle, 'db' | 'dialect'>): Promise<string[]> {
  const query =
    handle.dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`;
  const { rows } = await query.execute(handle.db);
  return rows
    .map((r) => r.name)
    .filter((name) => !name.startsWith('kysely_'))
    .sort();
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('newId', () => {
  it('is 22 base64url characters of fresh randomness', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe('createDatabase (sqlite)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropsite-dbtest-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('opens sqlite:<path>, creating parent directories, with WAL and foreign keys on', async () => {
    const path = join(dir, 'nested', 'deeper', 'app.sqlite');
    const handle = await createDatabase(`sqlite:${path}`);
    try {
      expect(handle.dialect).toBe('sqlite');
      expect(existsSync(path)).toBe(true);
      const pragma = async (name: string) => (await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(handle.db)).rows[0];
      expect(await pragma('journal_mode')).toEqual({ journal_mode: 'wal' });
      expect(await pragma('foreign_keys')).toEqual({ foreign_keys: 1 });
      expect(await pragma('busy_timeout')).toEqual({ timeout: 5000 });
      expect(await pragma('synchronous')).toEqual({ synchronous: 1 });
    } finally {
      await handle.close();
    }
  });

  it('opens a plain path and :memory:, and migrating twice is a no-op', async () => {
    for (const url of [join(dir, 'plain.sqlite'), ':memory:', 'sqlite::memory:']) {
      const handle = await createDatabase(url);
      try {
        await migrateToLatest(handle.db);
        await migrateToLatest(handle.db);
        expect(await listTables(handle)).toEqual(ALL_TABLES);
      } finally {
        await handle.close();
      }
    }
  });

  it('close() may be called twice', async () => {
    const handle = await createDatabase(':memory:');
    await handle.close();
    await expect(handle.close()).resolves.toBeUndefined();
  });
});

await describeEachDialect('schema', (handle, dialect) => {
  it('migrates to every table', async () => {
    expect(handle.dialect).toBe(dialect);
    expect(await listTables(handle)).toEqual(ALL_TABLES);
  });

  it('allows one favourite and one approval per file and visitor', async () => {
    const site = makeSiteRow();
    const file = makeFileRow(site.id, 0);
    await handle.db.insertInto('projects').values(site).execute();
    await handle.db.insertInto('files').values(file).execute();
    const favourite = { project_id: site.id, file_id: file.id, visitor_id: 'visitor-1', user_name: 'Ann', created_at: NOW };
    await handle.db
      .insertInto('favorites')
      .values({ id: newId(), ...favourite })
      .execute();
    const error = await rejection(
      handle.db
        .insertInto('favorites')
        .values({ id: newId(), ...favourite })
        .execute(),
    );
    expect(isUniqueViolation(error)).toBe(true);
    // Another visitor may still favourite the same file.
    await handle.db
      .insertInto('favorites')
      .values({ id: newId(), ...favourite, visitor_id: 'visitor-2' })
      .execute();

    const approval = { ...favourite, status: 'approved' as const, updated_at: NOW };
    await handle.db
      .insertInto('approvals')
      .values({ id: newId(), ...approval })
      .execute();
    expect(
      isUniqueViolation(
        await rejection(
          handle.db
            .insertInto('approvals')
            .values({ id: newId(), ...approval })
            .execute(),
        ),
      ),
    ).toBe(true);
  });

  it('keeps slugs, creator emails, idempotency keys and build versions unique', async () => {
    const site = makeSiteRow();
    await handle.db.insertInto('projects').values(site).execute();
    expect(
      isUniqueViolation(
        await rejection(
          handle.db
            .insertInto('projects')
            .values(makeSiteRow({ slug: site.slug }))
            .execute(),
        ),
      ),
    ).toBe(true);

    const creator = { email: `${newId()}@example.com`, name: 'C', avatar_url: '', external_user_id: null, password_hash: null, created_at: NOW, updated_at: NOW };
    await handle.db
      .insertInto('creators')
      .values({ id: newId(), ...creator })
      .execute();
    expect(
      isUniqueViolation(
        await rejection(
          handle.db
            .insertInto('creators')
            .values({ id: newId(), ...creator })
            .execute(),
        ),
      ),
    ).toBe(true);
    // Creators without an external id do not collide with each other.
    await handle.db
      .insertInto('creators')
      .values({ id: newId(), ...creator, email: `${newId()}@example.com` })
      .execute();

    const session = {
      project_id: newId(),
      protocol: 'chunked' as const,
      status: 'open' as const,
      idempotency_key: newId(),
      anonymous_session_id: null,
      form: '{}',
      created_at: NOW,
      expires_at: NOW,
      completed_at: null,
    };
    await handle.db
      .insertInto('upload_sessions')
      .values({ id: newId(), ...session })
      .execute();
    expect(
      isUniqueViolation(
        await rejection(
          handle.db
            .insertInto('upload_sessions')
            .values({ id: newId(), ...session })
            .execute(),
        ),
      ),
    ).toBe(true);

    const build = makeQueuedBuildRow(site.id, 1, NOW);
    await handle.db
      .insertInto('builds')
      .values({ id: newId(), ...build })
      .execute();
    expect(
      isUniqueViolation(
        await rejection(
          handle.db
            .insertInto('builds')
            .values({ id: newId(), ...build })
            .execute(),
        ),
      ),
    ).toBe(true);
  });

  it('rejects a redelivered Stripe event id', async () => {
    const event = { id: `evt_${newId()}`, type: 'invoice.paid', created_at: NOW, processed_at: NOW };
    await handle.db.insertInto('billing_events').values(event).execute();
    expect(isUniqueViolation(await rejection(handle.db.insertInto('billing_events').values(event).execute()))).toBe(true);
  });

  it('cascades a project delete to its files, favourites and builds', async () => {
    const site = makeSiteRow();
    const files = [makeFileRow(site.id, 0), makeFileRow(site.id, 1)];
    await handle.db.insertInto('projects').values(site).execute();
    await handle.db.insertInto('files').values(files).execute();
    await handle.db.insertInto('favorites').values({ id: newId(), project_id: site.id, file_id: files[0]!.id, visitor_id: 'v', user_name: '', created_at: NOW }).execute();

    await handle.db.deleteFrom('projects').where('id', '=', site.id).execute();

    const remainingFiles = await handle.db.selectFrom('files').select('id').where('project_id', '=', site.id).execute();
    const remainingFavourites = await handle.db.selectFrom('favorites').select('id').where('project_id', '=', site.id).execute();
    expect(remainingFiles).toEqual([]);
    expect(remainingFavourites).toEqual([]);
  });

  it('rejects a file of a project that does not exist', async () => {
    await expect(handle.db.insertInto('files').values(makeFileRow(newId(), 0)).execute()).rejects.toThrow();
  });

  it('cascades upload sessions to their files and chunks', async () => {
    const sessionId = newId();
    const fileId = newId();
    await handle.db
      .insertInto('upload_sessions')
      .values(makeUploadSessionRow({ id: sessionId, expires_at: NOW }))
      .execute();
    await handle.db
      .insertInto('upload_files')
      .values(makeUploadFileRow(sessionId, 0, { id: fileId, size: 10, chunk_size: 5, total_chunks: 2 }))
      .execute();
    const chunk = { file_id: fileId, size: 5, checksum: 'x', storage_key: 'k', etag: null, created_at: NOW };
    await handle.db
      .insertInto('upload_chunks')
      .values([
        { ...chunk, chunk_index: 0 },
        { ...chunk, chunk_index: 1 },
      ])
      .execute();
    expect(
      isUniqueViolation(
        await rejection(
          handle.db
            .insertInto('upload_chunks')
            .values({ ...chunk, chunk_index: 1 })
            .execute(),
        ),
      ),
    ).toBe(true);

    await handle.db.deleteFrom('upload_sessions').where('id', '=', sessionId).execute();
    expect(await handle.db.selectFrom('upload_chunks').select('chunk_index').where('file_id', '=', fileId).execute()).toEqual([]);
  });

  it('answers epoch-ms bigints and counts as numbers', async () => {
    const big = 4_102_444_800_000; // 2100-01-01, beyond 32 bits
    const site = makeSiteRow({ created_at: big, expires_at: big + 1 });
    await handle.db.insertInto('projects').values(site).execute();
    const row = await handle.db.selectFrom('projects').select(['created_at', 'expires_at', 'version']).where('id', '=', site.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ created_at: big, expires_at: big + 1, version: 1 });
    const { count } = await handle.db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('id', '=', site.id)
      .executeTakeFirstOrThrow();
    expect(count).toBe(1);
  });

  it('rolls back to no tables, and migrates up again', async () => {
    const scratch = await createTestDatabase(dialect);
    try {
      await rollbackAllMigrations(scratch.db);
      expect(await listTables(scratch)).toEqual([]);
      await migrateToLatest(scratch.db);
      expect(await listTables(scratch)).toEqual(ALL_TABLES);
    } finally {
      await scratch.cleanup();
    }
  });
});

const postgresAvailable = await isDialectAvailable('postgres');

describe.skipIf(!postgresAvailable)('createDatabase (postgres)', () => {
  it('works in the schema named by ?schema=, creating it', async () => {
    const schema = `test_url_${newId()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')}`;
    const url = new URL(TEST_POSTGRES_URL);
    url.searchParams.set('schema', schema);
    const handle = await createDatabase(url.toString());
    try {
      expect(handle.dialect).toBe('postgres');
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db);
      expect(rows[0]?.schema).toBe(schema);
      await migrateToLatest(handle.db);
      expect(await listTables(handle)).toEqual(ALL_TABLES);
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(handle.db);
      await handle.close();
    }
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(createDatabase(TEST_POSTGRES_URL, { searchPath: 'x; drop table y' })).rejects.toThrow(/Invalid PostgreSQL schema/);
  });
});
