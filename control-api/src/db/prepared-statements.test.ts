import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, isDialectAvailable, type TTestDatabase } from '@dropsite/testkit/control-api/test-database';
import { runPrepared } from './prepared-statements.ts';

const available = await isDialectAvailable('postgres');

describe.skipIf(!available)('prepared statements on PostgreSQL', () => {
  let handle: TTestDatabase;

  beforeAll(async () => {
    handle = await createTestDatabase('postgres');
  });

  afterAll(async () => {
    await handle?.cleanup();
  });

  it('runs a statement given to runPrepared by name, parsed once per connection, with each call’s values', async () => {
    const text = (n: number) => sql<{ n: number }>`select ${n}::int + 1 as n`;
    // One transaction: one connection, whose prepared statements it can list.
    const prepared = await handle.db.transaction().execute(async (trx) => {
      const answers = [(await runPrepared(trx, text(1))).rows[0]!.n, (await runPrepared(trx, text(41))).rows[0]!.n];
      const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(trx);
      return { answers, rows };
    });
    expect(prepared.answers).toEqual([2, 42]);
    const mine = prepared.rows.filter((row) => row.statement === text(0).compile(handle.db).sql);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.name).toMatch(/^dropsite_prepared_\d+$/);
  });
});
