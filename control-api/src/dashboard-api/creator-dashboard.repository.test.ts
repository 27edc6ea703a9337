import { beforeAll, expect, it } from 'vitest';
import { newId } from '../db/ids.ts';
import { insertAnalyticsEvent } from '../analytics/analytics.repository.ts';
import { describeEachDialect, makeFileRow, makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import { countEngagementByFile, listCommentThreadsBefore, listNewestCommentThreads, listNewestFavorites, listSitesOfWorkspace } from './creator-dashboard.repository.ts';

const NOW = 1_763_800_000_000;

await describeEachDialect('creator dashboard reads', (database) => {
  const creatorId = newId();
  const older = makeSiteRow({ owner_creator_id: creatorId, workspace_id: creatorId, created_at: NOW, title: 'Older' });
  const newer = makeSiteRow({ owner_creator_id: creatorId, workspace_id: creatorId, created_at: NOW + 1000, title: 'Newer' });
  const someoneElses = makeSiteRow({ created_at: NOW + 2000 });
  const files = [makeFileRow(newer.id, 1, { metadata: '{"thumbnail":{}}' }), makeFileRow(newer.id, 0), makeFileRow(newer.id, 2)];

  beforeAll(async () => {
    const { db } = database;
    await db
      .insertInto('creators')
      .values({ id: creatorId, email: `${creatorId}@example.com`, name: 'C', avatar_url: '', external_user_id: null, password_hash: null, created_at: NOW, updated_at: NOW })
      .execute();
    await db.insertInto('projects').values([older, newer, someoneElses]).execute();
    await db.insertInto('files').values(files).execute();
    const file = files[1]!.id;
    await db
      .insertInto('favorites')
      .values([0, 1, 2].map((i) => ({ id: newId(), project_id: newer.id, file_id: file, visitor_id: `v${i}`, user_name: `User ${i}`, created_at: NOW + i })))
      .execute();
    await db
      .insertInto('approvals')
      .values({ id: newId(), project_id: newer.id, file_id: files[0]!.id, visitor_id: 'v1', user_name: 'User 1', status: 'rejected', created_at: NOW, updated_at: NOW })
      .execute();
    // 25 threads on one file, each answered once.
    for (let i = 0; i < 25; i++) {
      const root = {
        id: `root-${String(i).padStart(2, '0')}`,
        project_id: newer.id,
        file_id: file,
        parent_id: null,
        visitor_id: 'v',
        user_name: 'U',
        body: `t${i}`,
        created_at: NOW + i * 10,
      };
      await db.insertInto('comments').values(root).execute();
      await db
        .insertInto('comments')
        .values({ ...root, id: `reply-${i}`, parent_id: root.id, body: `r${i}`, created_at: root.created_at + 1 })
        .execute();
    }
    await insertAnalyticsEvent(db, { id: newId(), siteId: newer.id, fileId: null, visitorId: 'v1', type: 'view', details: 'v', now: NOW });
    await insertAnalyticsEvent(db, { id: newId(), siteId: newer.id, fileId: file, visitorId: 'v1', type: 'download', details: 'd', now: NOW });
  });

  it('lists the creator’s sites newest first with their first file, counts and traffic', async () => {
    const rows = await listSitesOfWorkspace(database.db, creatorId);
    expect(rows.map((r) => r.title)).toEqual(['Newer', 'Older']);
    expect(rows[0]).toMatchObject({
      id: newer.id,
      first_file_id: files[1]!.id,
      file_count: 3,
      favorites_count: 3,
      comments_count: 50,
      approvals_count: 1,
      // A request for changes is not an approval; one file of three has a decision.
      approved_count: 0,
      changes_requested_count: 1,
      decided_files_count: 1,
      views_count: 1,
      downloads_count: 1,
    });
    expect(rows[1]).toMatchObject({ id: older.id, first_file_id: null, first_file_metadata: null, file_count: 0, favorites_count: 0, comments_count: 0, views_count: 0 });
    expect(await listSitesOfWorkspace(database.db, newId())).toEqual([]);
  });

  it('bounds each file’s threads and favourites, counts by file, and pages back through older threads', async () => {
    const fileIds = files.map((f) => f.id);
    const counts = await countEngagementByFile(database.db, fileIds);
    // Pending: whether the file still waits for anyone's decision.
    expect(counts.get(files[1]!.id)).toEqual({ favorites: 3, comments: 50, approvals: { approved: 0, rejected: 0, pending: 1 } });
    expect(counts.get(files[0]!.id)!.approvals).toEqual({ approved: 0, rejected: 1, pending: 0 });
    const { roots, replies } = await listNewestCommentThreads(database.db, fileIds, 10);
    expect(roots.map((r) => r.body)).toEqual(Array.from({ length: 10 }, (_, i) => `t${i + 15}`));
    expect(replies.map((r) => r.body)).toEqual(Array.from({ length: 10 }, (_, i) => `r${i + 15}`));
    expect((await listNewestFavorites(database.db, newer.id, 2)).map((f) => f.user_name)).toEqual(['User 2', 'User 1']);

    const page = await listCommentThreadsBefore(database.db, files[1]!.id, roots[0]!, 10);
    expect(page.roots.map((r) => r.body)).toEqual(Array.from({ length: 10 }, (_, i) => `t${i + 5}`));
    expect(page.hasMore).toBe(true);
    const last = await listCommentThreadsBefore(database.db, files[1]!.id, page.roots[0]!, 10);
    expect(last.roots.map((r) => r.body)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(last.replies).toHaveLength(5);
    expect(last.hasMore).toBe(false);
  });
});
