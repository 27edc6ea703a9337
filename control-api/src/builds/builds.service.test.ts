/**
 * A build's progress on its row: a build that ends quickly (a page rebuild) writes none, only its
 * start and its end; one that runs longer shows its stage from PROGRESS_DELAY_MS on, and nothing it
 * reported ever lands after its final row.
 */
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { SiteBuilder, TBuildReport, TBuildResult } from '@dropsite/builder';
import { makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { newId } from '../db/ids.ts';
import { insertSite } from '../site-records/site-records.repository.ts';
import { findBuildById, insertBuild } from './builds.repository.ts';
import { createBuildProcessor, PROGRESS_DELAY_MS } from './builds.service.ts';

let app: TTestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const built: TBuildResult = {
  htmlKey: 'sites/x/index.html',
  htmlBytes: 0,
  derived: {},
  derivedCount: 0,
  timings: { deriveMs: 0, renderMs: 0, storeMs: 0 },
  page: {
    scriptHashes: [],
    representations: { identity: { bytes: new Uint8Array(), etag: 'a' }, br: { bytes: new Uint8Array(), etag: 'b' }, gzip: { bytes: new Uint8Array(), etag: 'c' } },
  },
};

/** A site with a queued build, and a builder that reports what `run` says, when `run` says it. */
async function queuedBuild(run: (report: (r: TBuildReport) => Promise<void>) => Promise<void>) {
  const site = makeSiteRow();
  await insertSite(app.deps.db, site);
  const build = await insertBuild(app.deps.db, { id: newId(), siteId: site.id, version: site.version, now: Date.now() });
  const builder: Pick<SiteBuilder, 'buildSite'> = {
    buildSite: async (_input, report) => {
      await run(report);
      return built;
    },
  };
  const queueReports: TBuildReport[] = [];
  const processing = createBuildProcessor(app.deps, builder)({ projectId: site.id, buildId: build.id, version: site.version }, async (r) => {
    queueReports.push(r);
  });
  return { buildId: build.id, processing, queueReports, row: () => findBuildById(app.deps.db, build.id) };
}

it('writes no progress for a build that ends within the delay: its row goes from running to succeeded', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const { processing, queueReports, row } = await queuedBuild(async (report) => {
    await report({ progress: 5, stage: 'Preparing files' });
    await report({ progress: 60, stage: 'Processing files (1/1)' });
    await report({ progress: 90, stage: 'Rendering site' });
    await report({ progress: 100, stage: 'Published' });
  });
  await processing;
  expect(queueReports).toEqual([]);
  expect(await row()).toMatchObject({ status: 'succeeded', progress: 100, stage: 'done', attempts: 1 });
  // Its timer is gone with it: nothing is written later.
  await vi.advanceTimersByTimeAsync(PROGRESS_DELAY_MS * 2);
  expect([queueReports, await row()]).toEqual([[], expect.objectContaining({ progress: 100, stage: 'done' })]);
});

it('shows the stage of a longer build from the delay on, each change as it comes, and ends on its final row', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let finish = () => {};
  const held = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let reachedHold = () => {};
  const holding = new Promise<void>((resolve) => {
    reachedHold = resolve;
  });
  let report: (r: TBuildReport) => Promise<void> = async () => {};
  const build = await queuedBuild(async (r) => {
    report = r;
    await r({ progress: 5, stage: 'Preparing files' });
    await r({ progress: 40, stage: 'Processing files (1/3)' });
    reachedHold();
    await held;
  });
  await holding;
  expect(await build.row()).toMatchObject({ status: 'running', progress: 0, stage: 'queued' });

  await vi.advanceTimersByTimeAsync(PROGRESS_DELAY_MS);
  await expect.poll(() => build.row()).toMatchObject({ status: 'running', progress: 40, stage: 'Processing files (1/3)' });
  await report({ progress: 90, stage: 'Rendering site' });
  await expect.poll(() => build.row()).toMatchObject({ progress: 90, stage: 'Rendering site' });
  expect(build.queueReports.map((r) => r.stage)).toEqual(['Processing files (1/3)', 'Rendering site']);

  finish();
  await build.processing;
  expect(await build.row()).toMatchObject({ status: 'succeeded', progress: 100, stage: 'done' });
});
