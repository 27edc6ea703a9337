import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFileRow, makeProjectRow } from '../test-support/test-database.ts';
import { createDatabase, migrateToLatest, type TDatabaseHandle } from './database.ts';
import { newId } from './ids.ts';
import { cachedRead } from './read-cache.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('read cache on SQLite', () => {
  let dir: string;
  let handle: TDatabaseHandle;
  let other: TDatabaseHandle;
  const project = makeProjectRow();
  const file = makeFileRow(project.id, 0);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropsite-read-cache-'));
    const url = `sqlite:${join(dir, 'cache.sqlite')}`;
    handle = await createDatabase(url);
    await migrateToLatest(handle.db);
    other = await createDatabase(url); // a second process on the same file: an ops command, a builder
    await handle.db.insertInto('projects').values(project).execute();
    await handle.db.insertInto('files').values(file).execute();
  });

  afterAll(async () => {
    await other?.close();
    await handle?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A cached read of the project's title that counts how often it went to the database. */
  function titleReader(key: string, tables: readonly string[]) {
    let loads = 0;
    const read = () =>
      cachedRead(handle.db, handle.readCache, key, tables, async () => {
        loads++;
        return (await handle.db.selectFrom('projects').select('title').where('id', '=', project.id).executeTakeFirstOrThrow()).title;
      });
    return { read, loads: () => loads };
  }

  it('answers a repeated read from memory while nothing it reads changed', async () => {
    const reader = titleReader('title-1', ['projects']);
    expect(await reader.read()).toBe(project.title);
    await nextTurn();
    expect(await reader.read()).toBe(project.title);
    expect(reader.loads()).toBe(1);
  });

  it('reads again after this process writes a table the answer depends on', async () => {
    const reader = titleReader('title-2', ['projects']);
    await reader.read();
    await handle.db.updateTable('projects').set({ title: 'Renamed here' }).where('id', '=', project.id).execute();
    expect(await reader.read()).toBe('Renamed here');
    expect(reader.loads()).toBe(2);
  });

  it('keeps its answer when another table is written', async () => {
    const reader = titleReader('title-3', ['projects']);
    await reader.read();
    await handle.db
      .insertInto('favorites')
      .values({ id: newId(), project_id: project.id, file_id: file.id, visitor_id: 'visitor-a', user_name: 'User r-a', created_at: Date.now() })
      .execute();
    await handle.db.deleteFrom('favorites').where('visitor_id', '=', 'visitor-a').execute();
    await reader.read();
    expect(reader.loads()).toBe(1);
  });

  it('reads again after another connection commits a change', async () => {
    const reader = titleReader('title-4', ['projects']);
    await reader.read();
    await other.db.updateTable('projects').set({ title: 'Renamed elsewhere' }).where('id', '=', project.id).execute();
    await nextTurn();
    expect(await reader.read()).toBe('Renamed elsewhere');
    expect(reader.loads()).toBe(2);
  });

  it('drops everything on a delete that may cascade', async () => {
    const comments = titleReader('comments-only', ['comments']);
    await comments.read();
    const doomed = makeProjectRow();
    await handle.db.insertInto('projects').values(doomed).execute();
    await comments.read();
    expect(comments.loads()).toBe(1); // an insert into projects changes no comment
    await handle.db.deleteFrom('projects').where('id', '=', doomed.id).execute();
    await comments.read();
    expect(comments.loads()).toBe(2);
  });

  it('never caches inside a transaction', async () => {
    let loads = 0;
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 3; i++) await cachedRead(trx, handle.readCache, 'in-transaction', ['projects'], async () => ++loads);
    });
    expect(loads).toBe(3);
  });
});
