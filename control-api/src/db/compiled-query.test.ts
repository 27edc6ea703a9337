import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect, makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import { compiledQuery, createQueryCache } from './compiled-query.ts';

await describeEachDialect('compiledQuery', (database) => {
  // A runtime's cache: each query compiled once, then run with each call's values.
  const cache = createQueryCache();
  const first = makeSiteRow({ title: 'First delivery' });
  const second = makeSiteRow({ title: 'Second delivery' });

  beforeAll(async () => {
    await database.db.insertInto('projects').values([first, second]).execute();
  });

  const titleOf = compiledQuery((db, id: string) => db.selectFrom('projects').select('title').where('id', '=', id).where('deleted_at', 'is', null));

  it('runs with each call’s own values, the constants of the query kept', async () => {
    expect((await titleOf(database.db, cache, first.id)).rows).toEqual([{ title: 'First delivery' }]);
    expect((await titleOf(database.db, cache, second.id)).rows).toEqual([{ title: 'Second delivery' }]);
    expect((await titleOf(database.db, cache, 'missing')).rows).toEqual([]);
  });

  it('runs inside a transaction, seeing its uncommitted writes', async () => {
    const rename = compiledQuery((db, id: string, title: string) => db.updateTable('projects').set({ title }).where('id', '=', id));
    await expect(
      database.db.transaction().execute(async (trx) => {
        await rename(trx, cache, first.id, 'Renamed inside');
        expect((await titleOf(trx, cache, first.id)).rows).toEqual([{ title: 'Renamed inside' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await titleOf(database.db, cache, first.id)).rows).toEqual([{ title: 'First delivery' }]);
  });

  it('refuses a query that does not bind every argument', async () => {
    const shaped = compiledQuery((db, _id: string) => db.selectFrom('projects').select('title'));
    await expect(shaped(database.db, cache, first.id)).rejects.toThrow(/bind each of its 1 arguments/);
  });
});
