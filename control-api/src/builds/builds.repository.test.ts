import { expect, it } from 'vitest';
import { newId } from '../db/ids.ts';
import { insertSite } from '../site-records/site-records.repository.ts';
import { describeEachDialect, makeSiteRow, makeQueuedBuildRow } from '@dropsite/testkit/control-api/test-database';
import {
  findBuildById,
  findLatestBuildForSite,
  findUnfinishedBuilds,
  listFinishedBuilds,
  insertBuild,
  markBuildFailed,
  markBuildRunning,
  markBuildSucceeded,
  updateBuildProgress,
} from './builds.repository.ts';

const NOW = 1_764_000_000_000;

await describeEachDialect('builds repository', (handle) => {
  async function newSite(): Promise<string> {
    const site = makeSiteRow();
    await insertSite(handle.db, site);
    return site.id;
  }

  it('inserts a queued build once per project version', async () => {
    const siteId = await newSite();
    const first = await insertBuild(handle.db, { id: newId(), siteId, version: 1, now: NOW });
    expect(first).toEqual({ id: first.id, ...makeQueuedBuildRow(siteId, 1, NOW) });
    const again = await insertBuild(handle.db, { id: newId(), siteId, version: 1, now: NOW + 5 });
    expect(again).toEqual(first);
    const next = await insertBuild(handle.db, { id: newId(), siteId, version: 2, now: NOW + 5 });
    expect(next.id).not.toBe(first.id);
  });

  it('answers one build to concurrent inserts of the same version', async () => {
    const siteId = await newSite();
    const builds = await Promise.all(Array.from({ length: 5 }, () => insertBuild(handle.db, { id: newId(), siteId, version: 7, now: NOW })));
    expect(new Set(builds.map((b) => b.id)).size).toBe(1);
  });

  it('finds builds by id and the latest by version', async () => {
    const siteId = await newSite();
    expect(await findLatestBuildForSite(handle.db, siteId)).toBeNull();
    const v1 = await insertBuild(handle.db, { id: newId(), siteId, version: 1, now: NOW + 10 });
    const v3 = await insertBuild(handle.db, { id: newId(), siteId, version: 3, now: NOW });
    await insertBuild(handle.db, { id: newId(), siteId, version: 2, now: NOW + 20 });
    expect(await findLatestBuildForSite(handle.db, siteId)).toEqual(v3);
    expect(await findBuildById(handle.db, v1.id)).toEqual(v1);
    expect(await findBuildById(handle.db, newId())).toBeNull();
  });

  it('runs a build to success, counting attempts', async () => {
    const siteId = await newSite();
    const build = await insertBuild(handle.db, { id: newId(), siteId, version: 1, now: NOW });

    expect(await markBuildRunning(handle.db, build.id, NOW + 1)).toBe(1);
    expect(await findBuildById(handle.db, build.id)).toMatchObject({ status: 'running', attempts: 1, started_at: NOW + 1 });
    await updateBuildProgress(handle.db, build.id, 42.6, 'thumbnails');
    expect(await findBuildById(handle.db, build.id)).toMatchObject({ progress: 43, stage: 'thumbnails' });
    await markBuildFailed(handle.db, build.id, 'sharp crashed', NOW + 2);
    expect(await findBuildById(handle.db, build.id)).toMatchObject({ status: 'failed', error: 'sharp crashed', finished_at: NOW + 2 });

    expect(await markBuildRunning(handle.db, build.id, NOW + 3)).toBe(2);
    expect(await findBuildById(handle.db, build.id)).toMatchObject({ status: 'running', attempts: 2, error: null, finished_at: null });
    await markBuildSucceeded(handle.db, build.id, NOW + 4);
    expect(await findBuildById(handle.db, build.id)).toMatchObject({ status: 'succeeded', progress: 100, error: null, finished_at: NOW + 4, attempts: 2 });
    await expect(markBuildRunning(handle.db, newId(), NOW)).rejects.toThrow(/not found/);
  });

  it('bounds progress and error text', async () => {
    const siteId = await newSite();
    const build = await insertBuild(handle.db, { id: newId(), siteId, version: 1, now: NOW });
    await updateBuildProgress(handle.db, build.id, 140, 'over');
    expect((await findBuildById(handle.db, build.id))?.progress).toBe(100);
    await markBuildFailed(handle.db, build.id, 'x'.repeat(10_000), NOW);
    expect((await findBuildById(handle.db, build.id))?.error).toHaveLength(4000);
  });

  it('finds unfinished builds of projects not deleted', async () => {
    const siteId = await newSite();
    const queued = await insertBuild(handle.db, { id: newId(), siteId, version: 1, now: NOW });
    const running = await insertBuild(handle.db, { id: newId(), siteId, version: 2, now: NOW + 1 });
    const done = await insertBuild(handle.db, { id: newId(), siteId, version: 3, now: NOW + 2 });
    await markBuildRunning(handle.db, running.id, NOW + 3);
    await markBuildSucceeded(handle.db, done.id, NOW + 4);
    const deletedSite = makeSiteRow({ deleted_at: NOW });
    await insertSite(handle.db, deletedSite);
    await insertBuild(handle.db, { id: newId(), siteId: deletedSite.id, version: 1, now: NOW });

    const unfinished = (await findUnfinishedBuilds(handle.db)).filter((b) => b.project_id === siteId || b.project_id === deletedSite.id);
    expect(unfinished.map((b) => [b.id, b.status])).toEqual([
      [queued.id, 'queued'],
      [running.id, 'running'],
    ]);
  });

  it('counts succeeded and failed builds among the given ids', async () => {
    const siteId = await newSite();
    const ids: string[] = [];
    for (let version = 1; version <= 5; version++) ids.push((await insertBuild(handle.db, { id: newId(), siteId, version, now: NOW })).id);
    await markBuildSucceeded(handle.db, ids[0]!, NOW);
    await markBuildSucceeded(handle.db, ids[1]!, NOW);
    await markBuildFailed(handle.db, ids[2]!, 'boom', NOW);
    await markBuildRunning(handle.db, ids[3]!, NOW);
    const statuses = (builds: Array<{ id: string; status: string }>) => Object.fromEntries(builds.map((b) => [b.id, b.status]));
    expect(statuses(await listFinishedBuilds(handle.db, ids))).toEqual({ [ids[0]!]: 'succeeded', [ids[1]!]: 'succeeded', [ids[2]!]: 'failed' });
    expect(await listFinishedBuilds(handle.db, [ids[0]!, newId()])).toEqual([{ id: ids[0], status: 'succeeded' }]);
    expect(await listFinishedBuilds(handle.db, [])).toEqual([]);
    // More ids than one IN list holds.
    const many = [...ids, ...Array.from({ length: 2500 }, () => newId())];
    expect(statuses(await listFinishedBuilds(handle.db, many))).toEqual(statuses(await listFinishedBuilds(handle.db, ids)));
  });

  it('goes with its project', async () => {
    const siteId = await newSite();
    const build = await insertBuild(handle.db, { id: newId(), siteId, version: 1, now: NOW });
    await handle.db.deleteFrom('projects').where('id', '=', siteId).execute();
    expect(await findBuildById(handle.db, build.id)).toBeNull();
  });
});
