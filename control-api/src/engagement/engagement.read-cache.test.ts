/** The engagement reads the read cache serves (a site with its file, a file's comment threads) never answer stale. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFileRow, makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import { createDatabase, migrateToLatest, type TDatabaseHandle } from '../db/database.ts';
import { newId } from '../db/ids.ts';
import { findSiteAndFile, insertComment, listCommentThreads } from './engagement.repository.ts';

describe('engagement reads through the read cache on SQLite', () => {
  let dir: string;
  let handle: TDatabaseHandle;
  const site = makeSiteRow();
  const file = makeFileRow(site.id, 0);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropsite-read-cache-'));
    handle = await createDatabase(`sqlite:${join(dir, 'cache.sqlite')}`);
    await migrateToLatest(handle.db);
    await handle.db.insertInto('projects').values(site).execute();
    await handle.db.insertInto('files').values(file).execute();
  });

  afterAll(async () => {
    await handle?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows a password change and a new comment to the very next engagement call', async () => {
    const before = await findSiteAndFile(handle.db, site.id, file.id, { reads: handle.readCache });
    expect(before?.site.password_hash).toBeNull();
    expect(before?.file?.id).toBe(file.id);
    await handle.db.updateTable('projects').set({ password_hash: 'hash-v2', password_version: 2 }).where('id', '=', site.id).execute();
    const after = await findSiteAndFile(handle.db, site.id, file.id, { reads: handle.readCache });
    expect(after?.site.password_hash).toBe('hash-v2');
    expect(after?.site.password_version).toBe(2);

    expect((await listCommentThreads(handle.db, file.id, 200, { reads: handle.readCache })).total).toBe(0);
    await insertComment(handle.db, {
      id: newId(),
      project_id: site.id,
      file_id: file.id,
      parent_id: null,
      visitor_id: 'visitor-b',
      user_name: 'User r-b',
      body: 'The second one, please',
      created_at: Date.now(),
    });
    const threads = await listCommentThreads(handle.db, file.id, 200, { reads: handle.readCache });
    expect(threads.roots.map((c) => c.body)).toEqual(['The second one, please']);

    await handle.db.updateTable('projects').set({ deleted_at: Date.now() }).where('id', '=', site.id).execute();
    expect(await findSiteAndFile(handle.db, site.id, file.id, { reads: handle.readCache })).toBeNull();
  });
});
