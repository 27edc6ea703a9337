import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TTestDatabase } from '@dropsite/testkit/control-api/test-database';
import { makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import SQLite from 'better-sqlite3';
import { cachePreparedStatements } from './sqlite-statement-cache.ts';

describe('SQLite prepared-statement reuse', () => {
  let handle: TTestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase('sqlite');
    for (let i = 0; i < 5; i++)
      await handle.db
        .insertInto('projects')
        .values(makeSiteRow({ title: `p${i}` }))
        .execute();
  });
  afterAll(async () => {
    await handle.cleanup();
  });

  it('answers repeated queries with fresh parameters and results', async () => {
    const titles: string[] = [];
    for (let i = 0; i < 5; i++) {
      const row = await handle.db.selectFrom('projects').select('title').where('title', '=', `p${i}`).executeTakeFirstOrThrow();
      titles.push(row.title);
    }
    expect(titles).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    await handle.db.updateTable('projects').set({ description: 'changed' }).where('title', '=', 'p1').execute();
    const changed = await handle.db.updateTable('projects').set({ description: 'changed' }).where('title', '=', 'p2').executeTakeFirst();
    expect(changed.numUpdatedRows).toBe(1n);
  });

  it('never hands out a statement that is still being iterated', () => {
    const database = cachePreparedStatements(new SQLite(':memory:'));
    database.exec('create table t (n integer); insert into t values (1), (2), (3);');
    const sql = 'select n from t order by n';
    const first = database.prepare(sql);
    expect(database.prepare(sql)).toBe(first);
    const seen: number[] = [];
    for (const row of first.iterate() as IterableIterator<{ n: number }>) {
      seen.push(row.n);
      const during = database.prepare(sql);
      expect(during).not.toBe(first);
      expect(during.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    }
    expect(seen).toEqual([1, 2, 3]);
    database.close();
  });

  it('tells of every run of a statement, with its parameters, however often it runs', () => {
    const runs: [string, readonly unknown[]][] = [];
    const database = cachePreparedStatements(new SQLite(':memory:'), (source, parameters) => runs.push([source, parameters]));
    database.exec("create table t (id text, n integer); insert into t values ('a', 1), ('b', 2);");
    const update = 'update t set n = ? where id = ?';
    const statement = database.prepare(update);
    expect(runs).toEqual([]); // prepared, not run: nothing changed yet
    statement.run(5, 'a');
    statement.run([6, 'b']);
    database.prepare('select n from t where id = ?').pluck().get('a');
    expect(runs).toEqual([
      [update, [5, 'a']],
      [update, [6, 'b']],
      ['select n from t where id = ?', ['a']],
    ]);
    database.close();
  });
});
