/**
 * PostgreSQL restarting under a running process: its connections are cut, idle ones and ones lent
 * to a transaction. The process goes on (node-postgres's 'error' event has a listener), the query
 * that was running fails with an error the API answers 503, and the next query, once the server
 * takes connections again, works on a new connection.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDialectAvailable, TEST_POSTGRES_URL } from '@dropsite/testkit/control-api/test-database';
import { startTcpProxy, type TTcpProxy } from '@dropsite/testkit/control-api/tcp-proxy';
import { isDatabaseUnavailable } from './connection-errors.ts';
import { createDatabase, type TDatabaseHandle } from './database.ts';

const available = await isDialectAvailable('postgres');

/** A TCP proxy to the test PostgreSQL whose open connections can be cut, as a server restart cuts them. */
function startCuttableProxy(): Promise<TTcpProxy> {
  const target = new URL(TEST_POSTGRES_URL);
  return startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
}

describe.skipIf(!available)('PostgreSQL connections cut under a running process', () => {
  const schema = `test_conn_loss_${process.pid}_${Date.now().toString(36)}`;
  let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
  let database: TDatabaseHandle;
  const reported: unknown[] = [];

  beforeAll(async () => {
    proxy = await startCuttableProxy();
    const url = new URL(TEST_POSTGRES_URL);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    database = await createDatabase(url.toString(), { searchPath: schema, maxConnections: 2, onConnectionError: (err) => reported.push(err) });
  });

  afterAll(async () => {
    await database?.close();
    await proxy?.close();
    const direct = await createDatabase(TEST_POSTGRES_URL);
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(direct.db);
    await direct.close();
  });

  it('an idle connection cut is reported, and the next query opens a new one', async () => {
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
    const before = reported.length;
    proxy.cutConnections();
    await expect.poll(() => reported.length, { timeout: 2_000, interval: 10 }).toBeGreaterThan(before);
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
  });

  it('a connection cut while a transaction holds it fails that transaction with an error the API answers 503, and the process goes on', async () => {
    const before = reported.length;
    const failure = await database.db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        // Cut between two statements: the connection is lent out, with no query running on it.
        proxy.cutConnections();
        // The lent connection reports its own failure (no other is open: the one before was cut in the test above).
        await expect.poll(() => reported.length, { timeout: 2_000, interval: 10 }).toBeGreaterThan(before);
        await sql`select 2`.execute(trx);
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect((await sql<{ two: number }>`select 2 as two`.execute(database.db)).rows).toEqual([{ two: 2 }]);
  });
});
