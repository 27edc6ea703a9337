import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, isDialectAvailable, statementCounter, TEST_POSTGRES_URL, type TTestDatabase } from '@dropsite/testkit/control-api/test-database';
import { createDatabase, type TDatabaseHandle } from '../db/database.ts';
import { findVisitorProfile, saveVisitorProfile } from './visitors.repository.ts';

const available = await isDialectAvailable('postgres');

describe.skipIf(!available)('visitor names through the read cache on PostgreSQL', () => {
  let handle: TTestDatabase;
  /** Another API process on the same schema. */
  let other: TDatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase('postgres');
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db);
    other = await createDatabase(TEST_POSTGRES_URL, { searchPath: rows[0]!.schema, maxConnections: 2 });
    await handle.changeFeed!.listening();
  });

  afterAll(async () => {
    await other?.close();
    await handle?.cleanup();
  });

  it("answers a visitor's name from memory until it changes, here or in another process", async () => {
    const counting = statementCounter();
    const db = handle.db.withPlugin(counting.plugin);
    const caches = { reads: handle.readCache };
    await saveVisitorProfile(handle.db, 'visitor-n', { display_name: 'Nell', email: null }, Date.now());
    expect(await findVisitorProfile(db, 'visitor-n', caches)).toEqual({ display_name: 'Nell', email: null });
    // Once the save's own notification is in too, a repeated read queries nothing.
    const queriesOfARead = async () => {
      const before = counting.count();
      expect(await findVisitorProfile(db, 'visitor-n', caches)).toEqual({ display_name: 'Nell', email: null });
      return counting.count() - before;
    };
    await expect.poll(queriesOfARead, { timeout: 2_000, interval: 10 }).toBe(0);
    await saveVisitorProfile(handle.db, 'visitor-n', { display_name: 'Nell B.', email: 'nell@example.com' }, Date.now());
    expect(await findVisitorProfile(db, 'visitor-n', caches)).toEqual({ display_name: 'Nell B.', email: 'nell@example.com' });
    await saveVisitorProfile(other.db, 'visitor-n', { display_name: 'Nell Berg', email: null }, Date.now());
    await expect.poll(() => findVisitorProfile(db, 'visitor-n', caches), { timeout: 2_000, interval: 10 }).toEqual({ display_name: 'Nell Berg', email: null });
  });
});
