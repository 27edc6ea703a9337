import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFileRow, makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import { createDatabase, migrateToLatest, type TDatabaseHandle } from './database.ts';
import { newId } from './ids.ts';
import { cachedRead, createTableChanges, writesOfStatement } from './read-cache.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('read cache on SQLite', () => {
  let dir: string;
  let handle: TDatabaseHandle;
  let other: TDatabaseHandle;
  const site = makeSiteRow();
  const file = makeFileRow(site.id, 0);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropsite-read-cache-'));
    const url = `sqlite:${join(dir, 'cache.sqlite')}`;
    handle = await createDatabase(url);
    await migrateToLatest(handle.db);
    other = await createDatabase(url); // a second process on the same file: an ops command, a builder
    await handle.db.insertInto('projects').values(site).execute();
    await handle.db.insertInto('files').values(file).execute();
  });

  afterAll(async () => {
    await other?.close();
    await handle?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A cached read of the site's title that counts how often it went to the database. */
  function titleReader(key: string, tables: readonly string[]) {
    let loads = 0;
    const read = () =>
      cachedRead(handle.db, handle.readCache, key, tables, async () => {
        loads++;
        return (await handle.db.selectFrom('projects').select('title').where('id', '=', site.id).executeTakeFirstOrThrow()).title;
      });
    return { read, loads: () => loads };
  }

  it('answers a repeated read from memory while nothing it reads changed', async () => {
    const reader = titleReader('title-1', ['projects']);
    expect(await reader.read()).toBe(site.title);
    await nextTurn();
    expect(await reader.read()).toBe(site.title);
    expect(reader.loads()).toBe(1);
  });

  it('reads again after this process writes a table the answer depends on', async () => {
    const reader = titleReader('title-2', ['projects']);
    await reader.read();
    await handle.db.updateTable('projects').set({ title: 'Renamed here' }).where('id', '=', site.id).execute();
    expect(await reader.read()).toBe('Renamed here');
    expect(reader.loads()).toBe(2);
  });

  it('keeps its answer when another table is written', async () => {
    const reader = titleReader('title-3', ['projects']);
    await reader.read();
    await handle.db
      .insertInto('favorites')
      .values({ id: newId(), project_id: site.id, file_id: file.id, visitor_id: 'visitor-a', user_name: 'User r-a', created_at: Date.now() })
      .execute();
    await handle.db.deleteFrom('favorites').where('visitor_id', '=', 'visitor-a').execute();
    await reader.read();
    expect(reader.loads()).toBe(1);
  });

  it('reads again after another connection commits a change', async () => {
    const reader = titleReader('title-4', ['projects']);
    await reader.read();
    await other.db.updateTable('projects').set({ title: 'Renamed elsewhere' }).where('id', '=', site.id).execute();
    await nextTurn();
    expect(await reader.read()).toBe('Renamed elsewhere');
    expect(reader.loads()).toBe(2);
  });

  it('drops everything on a delete that may cascade', async () => {
    const comments = titleReader('comments-only', ['comments']);
    await comments.read();
    const doomed = makeSiteRow();
    await handle.db.insertInto('projects').values(doomed).execute();
    await comments.read();
    expect(comments.loads()).toBe(1); // an insert into sites changes no comment
    await handle.db.deleteFrom('projects').where('id', '=', doomed.id).execute();
    await comments.read();
    expect(comments.loads()).toBe(2);
  });

  /** A cached read of the site's row that names the row it was read from. */
  function rowReader(key: string, id: string) {
    let loads = 0;
    const read = () =>
      cachedRead(
        handle.db,
        handle.readCache,
        key,
        ['projects'],
        async () => {
          loads++;
          return (await handle.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
        },
        (row) => (row ? [{ table: 'projects', id: row.id }] : null),
      );
    return { read, loads: () => loads };
  }

  it("keeps a row's answer while other sites are added and changed, and reads again once its own row changes", async () => {
    const reader = rowReader('row-1', site.id);
    await reader.read();
    // Another site is published: its rows are added, then its own row is updated by id, as a build does.
    const other = makeSiteRow();
    await handle.db.insertInto('projects').values(other).execute();
    await handle.db.insertInto('files').values(makeFileRow(other.id, 0)).execute();
    await handle.db.updateTable('projects').set({ status: 'live', updated_at: Date.now() }).where('id', '=', other.id).execute();
    expect((await reader.read())?.title).toBe((await reader.read())?.title);
    expect(reader.loads()).toBe(1);

    await handle.db.updateTable('projects').set({ title: 'Renamed by id' }).where('id', '=', site.id).execute();
    expect((await reader.read())?.title).toBe('Renamed by id');
    expect(reader.loads()).toBe(2);
  });

  it('reads a row again after an update that may reach any row of its table', async () => {
    const reader = rowReader('row-2', site.id);
    await reader.read();
    await handle.db.updateTable('projects').set({ title: 'Renamed by slug' }).where('slug', '=', site.slug).execute();
    expect((await reader.read())?.title).toBe('Renamed by slug');
    expect(reader.loads()).toBe(2);
  });

  it('reads again once a row asked for and not found is added', async () => {
    const later = makeSiteRow();
    const reader = rowReader('row-3', later.id);
    expect(await reader.read()).toBeNull();
    await handle.db.insertInto('projects').values(later).execute();
    expect((await reader.read())?.id).toBe(later.id);
    expect(reader.loads()).toBe(2);
  });

  it('never caches inside a transaction', async () => {
    let loads = 0;
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 3; i++) await cachedRead(trx, handle.readCache, 'in-transaction', ['projects'], async () => ++loads);
    });
    expect(loads).toBe(3);
  });
});

describe('what a statement changes', () => {
  it('tells rows added, one row updated by id, tables and everything apart', () => {
    expect(writesOfStatement('select * from "projects" where "id" = ?', ['p1'])).toEqual({ kind: 'none' });
    expect(writesOfStatement('insert into "projects" ("id", "slug") values (?, ?)', ['p1', 's'])).toEqual({ kind: 'insert', table: 'projects' });
    expect(writesOfStatement('update "projects" set "status" = ?, "updated_at" = ? where "id" = ?', ['live', 1, 'p1'])).toEqual({
      kind: 'row',
      table: 'projects',
      id: 'p1',
    });
    // Without its parameters, the row is not known.
    expect(writesOfStatement('update "projects" set "status" = ? where "id" = ?')).toEqual({ kind: 'tables', tables: ['projects'] });
  });

  it('counts as changing the whole table what may change rows already there', () => {
    const table = { kind: 'tables', tables: ['favorites'] };
    expect(writesOfStatement('insert into "favorites" ("id") values (?) on conflict ("id") do update set "id" = excluded."id"', ['f'])).toEqual(table);
    expect(writesOfStatement('insert or ignore into "favorites" ("id") values (?)', ['f'])).toEqual(table);
    expect(writesOfStatement('update "favorites" set "n" = ? where "id" = ? and "visitor_id" = ?', [1, 'f', 'v'])).toEqual(table);
    expect(writesOfStatement('update "favorites" set "n" = (select count(*) from "comments" where "id" = ?) where "id" = ?', ['c', 'f'])).toEqual(table);
    expect(writesOfStatement('update "favorites" set "n" = ? where "id" = ?', [1])).toEqual(table);
    expect(writesOfStatement('update "favorites" set "n" = ? where "id" = ?', [1, { id: 'f' }])).toEqual(table);
  });

  it('counts a delete or replace of a row others hang from as changing everything', () => {
    expect(writesOfStatement('delete from "projects" where "id" = ?', ['p1'])).toEqual({ kind: 'everything' });
    expect(writesOfStatement('insert or replace into "files" ("id") values (?)', ['f1'])).toEqual({ kind: 'everything' });
    expect(writesOfStatement('replace into "projects" ("id") values (?)', ['p1'])).toEqual({ kind: 'everything' });
    expect(writesOfStatement('delete from "favorites" where "id" = ?', ['f1'])).toEqual({ kind: 'tables', tables: ['favorites'] });
  });
});

describe('table and row changes', () => {
  it('keeps answers about rows other than the ones changed, until too many rows are remembered', () => {
    const changes = createTableChanges(2);
    const at = changes.now();
    const row = (id: string) => [{ table: 'files', id }];
    changes.note({ kind: 'insert', table: 'files' });
    changes.note({ kind: 'row', table: 'files', id: 'a' });
    expect(changes.changedSince(at, ['files'], row('b'))).toBe(false);
    expect(changes.changedSince(at, ['files'], row('a'))).toBe(true);
    expect(changes.changedSince(at, ['files'], null)).toBe(true);
    changes.note({ kind: 'row', table: 'files', id: 'c' });
    expect(changes.changedSince(at, ['files'], row('b'))).toBe(false);
    // A third row: past the limit, the table counts as wholly changed.
    changes.note({ kind: 'row', table: 'files', id: 'd' });
    expect(changes.changedSince(at, ['files'], row('b'))).toBe(true);
    const later = changes.now();
    expect(changes.changedSince(later, ['files'], row('b'))).toBe(false);
    changes.note({ kind: 'everything' });
    expect(changes.changedSince(later, ['projects'], [{ table: 'projects', id: 'p' }])).toBe(true);
  });
});
