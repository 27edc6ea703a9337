/** npm run migrate's view of the schema on both databases: from empty, part-way, and up to date. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, migrateUpTo, type TDatabaseHandle } from '../db/database.ts';
import { isDialectAvailable, TEST_DIALECTS, TEST_POSTGRES_URL, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { applyPendingMigrations, listMigrationStates } from './migrations.ts';

describe.each(TEST_DIALECTS)('the migrations as npm run migrate shows them (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  let database: TDatabaseHandle;
  let cleanup: () => Promise<void>;
  /** The PostgreSQL schema the test works in (other suites' schemas sit beside it); undefined on SQLite. */
  let schemaName: string | undefined;

  // An empty database each time: no migration has run.
  beforeEach(async () => {
    if (!available) return;
    if (dialect === 'postgres') {
      const schema = testAppDatabase(dialect, 'migrate');
      const url = schema.config.databaseUrl ?? TEST_POSTGRES_URL;
      schemaName = new URL(url).searchParams.get('schema') ?? undefined;
      database = await createDatabase(url, { maxConnections: 2 });
      cleanup = async () => {
        await database.close();
        await schema.drop();
      };
    } else {
      const dir = await mkdtemp(join(tmpdir(), 'dropsite-migrate-'));
      database = await createDatabase(`sqlite:${join(dir, 'fresh.db')}`);
      cleanup = async () => {
        await database.close();
        await rm(dir, { recursive: true, force: true });
      };
    }
  });
  afterEach(async () => {
    if (available) await cleanup();
  });

  it.skipIf(!available)('lists every migration as pending on an empty database, and changes nothing by looking', async () => {
    const states = await listMigrationStates(database.db);
    expect(states.length).toBeGreaterThan(10);
    expect(states.every((m) => m.appliedAt === null)).toBe(true);
    expect(states.map((m) => m.name)).toEqual(states.map((m) => m.name).toSorted());
    const tables = await database.db.introspection.getTables();
    expect(tables.filter((t) => t.schema === schemaName)).toEqual([]);
  });

  it.skipIf(!available)('applies the pending migrations in order, records when, and then has nothing left to apply', async () => {
    const names = (await listMigrationStates(database.db)).map((m) => m.name);
    const before = Date.now();
    expect(await applyPendingMigrations(database.db)).toEqual(names);
    const after = Date.now();
    const states = await listMigrationStates(database.db);
    expect(states.map((m) => m.name)).toEqual(names);
    for (const m of states) {
      expect(m.appliedAt).toBeGreaterThanOrEqual(before - 1000);
      expect(m.appliedAt).toBeLessThanOrEqual(after + 1000);
    }
    expect(await applyPendingMigrations(database.db)).toEqual([]);
    expect((await database.db.selectFrom('projects').select('id').execute()).length).toBe(0);
  });

  it.skipIf(!available)('applies only what is pending on a database migrated part-way', async () => {
    const names = (await listMigrationStates(database.db)).map((m) => m.name);
    await migrateUpTo(database.db, names[2]!);
    const states = await listMigrationStates(database.db);
    expect(states.filter((m) => m.appliedAt !== null).map((m) => m.name)).toEqual(names.slice(0, 3));
    expect(await applyPendingMigrations(database.db)).toEqual(names.slice(3));
  });
});
