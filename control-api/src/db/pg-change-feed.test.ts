import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, isDialectAvailable, makeFileRow, makeSiteRow, TEST_POSTGRES_URL, type TTestDatabase } from '@dropsite/testkit/control-api/test-database';
import { createDatabase, type TDatabaseHandle } from './database.ts';
import { newId } from './ids.ts';
import { createPostgresChangeFeed, type TPostgresChangeFeed } from './pg-change-feed.ts';
import { cachedRead, type ReadCache } from './read-cache.ts';

const available = await isDialectAvailable('postgres');

describe.skipIf(!available)('read cache on PostgreSQL (change notifications)', () => {
  let handle: TTestDatabase;
  /** Another API process on the same schema. */
  let other: TDatabaseHandle;
  const site = makeSiteRow();
  const file = makeFileRow(site.id, 0);

  beforeAll(async () => {
    handle = await createTestDatabase('postgres');
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db);
    other = await createDatabase(TEST_POSTGRES_URL, { searchPath: rows[0]!.schema, maxConnections: 2 });
    await handle.db.insertInto('projects').values(site).execute();
    await handle.db.insertInto('files').values(file).execute();
    await handle.changeFeed!.listening();
  });

  afterAll(async () => {
    await other?.close();
    await handle?.cleanup();
  });

  function titleReader(key: string, cache: ReadCache | undefined = handle.readCache, tables: readonly string[] = ['projects']) {
    let loads = 0;
    const read = () =>
      cachedRead(handle.db, cache, key, tables, async () => {
        loads++;
        return (await handle.db.selectFrom('projects').select('title').where('id', '=', site.id).executeTakeFirstOrThrow()).title;
      });
    return { read, loads: () => loads };
  }

  it('answers a repeated read from memory while nothing it reads changed', async () => {
    const reader = titleReader('title-1');
    const first = await reader.read();
    expect(await reader.read()).toBe(first);
    expect(reader.loads()).toBe(1);
  });

  it("sees this process's own write at once, without waiting for the notification", async () => {
    const reader = titleReader('title-2');
    await reader.read();
    await handle.db.updateTable('projects').set({ title: 'Renamed here' }).where('id', '=', site.id).execute();
    expect(await reader.read()).toBe('Renamed here');
  });

  it("sees a transaction's writes once it commits, and not a rolled-back one's", async () => {
    const reader = titleReader('title-3');
    await reader.read();
    await handle.db.transaction().execute(async (trx) => {
      await trx.updateTable('projects').set({ title: 'Committed' }).where('id', '=', site.id).execute();
    });
    expect(await reader.read()).toBe('Committed');
    await handle.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('projects').set({ title: 'Rolled back' }).where('id', '=', site.id).execute();
        throw new Error('abandon');
      })
      .catch(() => {});
    expect(await reader.read()).toBe('Committed');
  });

  it("sees another process's commit once its notification arrives", async () => {
    const reader = titleReader('title-4');
    await reader.read();
    await other.db.updateTable('projects').set({ title: 'Renamed elsewhere' }).where('id', '=', site.id).execute();
    await expect.poll(() => reader.read(), { timeout: 2_000, interval: 10 }).toBe('Renamed elsewhere');
  });

  it("moves only the written table's answers, including a write inside a with statement", async () => {
    const reader = titleReader('title-5');
    await reader.read();
    await sql`with added as (insert into favorites (id, project_id, file_id, visitor_id, user_name, created_at)
      values (${newId()}, ${site.id}, ${file.id}, 'visitor-a', 'User a', ${Date.now()}) returning 1) select count(*) from added`.execute(handle.db);
    await handle.db.deleteFrom('favorites').where('visitor_id', '=', 'visitor-a').execute();
    // A comment written by another process moves the comment answers, not the site's. Its notification
    // comes after the favourites' (notifications arrive in commit order): once it is in, so are they.
    const comments = titleReader('comments-1', handle.readCache, ['comments']);
    await comments.read();
    await other.db
      .insertInto('comments')
      .values({ id: newId(), project_id: site.id, file_id: file.id, parent_id: null, visitor_id: 'visitor-b', user_name: 'User b', body: 'Lovely', created_at: Date.now() })
      .execute();
    await expect
      .poll(
        async () => {
          await comments.read();
          return comments.loads();
        },
        { timeout: 2_000, interval: 10 },
      )
      .toBe(2);
    await reader.read();
    expect(reader.loads()).toBe(1);
  });

  it('never caches a table that sends no notifications', async () => {
    const reader = titleReader('favorites-1', handle.readCache, ['favorites']);
    await reader.read();
    await reader.read();
    expect(reader.loads()).toBe(2);
  });

  describe('when notifications may have been missed', () => {
    let clients: pg.Client[] = [];
    let feed: TPostgresChangeFeed;
    let errors: unknown[] = [];

    beforeAll(async () => {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db);
      feed = createPostgresChangeFeed({
        connect: async () => {
          const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, options: `-c search_path=${rows[0]!.schema}` });
          await client.connect();
          clients.push(client);
          return client;
        },
        heartbeatMs: 100,
        reconnectMs: 100,
        onError: (err) => errors.push(err),
      });
      await feed.listening();
    });

    afterAll(async () => {
      await feed?.close();
      clients = [];
      errors = [];
    });

    it('reads through while the listening connection is gone, and caches again once it is back', async () => {
      const reader = titleReader('lost-1', feed.cache);
      await reader.read();
      await reader.read();
      expect(reader.loads()).toBe(1);
      const listenerPid = (clients.at(-1) as unknown as { processID: number }).processID;
      await sql`select pg_terminate_backend(${listenerPid})`.execute(other.db);
      await expect.poll(() => errors.length, { timeout: 3_000, interval: 10 }).toBeGreaterThan(0);
      const before = reader.loads();
      await reader.read();
      await reader.read();
      expect(reader.loads()).toBe(before + 2);
      // Back after the reconnect wait: caching again.
      await expect.poll(() => clients.length, { timeout: 3_000, interval: 10 }).toBe(2);
      await feed.listening();
      await reader.read();
      const after = reader.loads();
      await reader.read();
      expect(reader.loads()).toBe(after);
    });

    it('treats a heartbeat that does not come back as a lost connection', async () => {
      const reader = titleReader('lost-2', feed.cache);
      await reader.read();
      const errorsBefore = errors.length;
      // The connection stays up but no longer hears the channel: changes would go unnoticed.
      await clients.at(-1)!.query('unlisten dropsite_changes');
      await other.db.updateTable('projects').set({ title: 'Changed unheard' }).where('id', '=', site.id).execute();
      await expect.poll(() => errors.length, { timeout: 3_000, interval: 10 }).toBeGreaterThan(errorsBefore);
      expect(await reader.read()).toBe('Changed unheard');
    });
  });
});
