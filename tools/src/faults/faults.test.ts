/**
 * The rows of `npm run faults`, each against one fault stack of this file's own (nginx, two APIs, two
 * builders, PostgreSQL and Redis through proxies the test cuts, an S3 store that can fill up). Skips
 * when nginx, PostgreSQL or Redis is missing, as the other stack tests do (and fails on CI instead).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKillUpload } from './api-kill-upload.ts';
import { builderKillBuild } from './builder-kill-build.ts';
import { expiryClock } from './expiry-clock.ts';
import { startFaultStack, type TFaultStack } from './fault-stack.ts';
import { postgresRestartEngagement } from './postgres-restart-engagement.ts';
import { redisDownPublish } from './redis-down-publish.ts';
import { storageFull } from './storage-full.ts';
import { isStackAvailable } from '../stack-test-support.ts';

const available = await isStackAvailable();

describe.skipIf(!available)('faults injected into the distributed stack', () => {
  let faults: TFaultStack;

  beforeAll(async () => {
    faults = await startFaultStack({
      postgresUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      name: 'faults-test',
    });
  }, 180_000);

  afterAll(() => faults?.discard(), 60_000);

  it('an API killed with SIGKILL mid-chunk: the upload resumes on the other API and the published file is the same bytes', async () => {
    const outcome = await apiKillUpload.run(faults, () => {});
    expect(outcome.failures).toEqual([]);
    expect(outcome.measured).toMatchObject({ identical: true, receivedAfterKill: '0', completeStatus: 200 });
  }, 120_000);

  it('a builder killed with SIGKILL mid-build: the other builder makes the site live, and no visitor ever gets a page missing files', async () => {
    const outcome = await builderKillBuild.run(faults, () => {});
    expect(outcome.failures).toEqual([]);
    expect(outcome.measured).toMatchObject({ halfBuilt: 0, other: 0, tookOver: true });
    expect(outcome.measured.building).toBeGreaterThan(0);
  }, 240_000);

  it('Redis unreachable while publishing: each publish is a fast 503 or accepted, and every accepted one goes live once Redis is back', async () => {
    const outcome = await redisDownPublish.run(faults, () => {});
    expect(outcome.failures).toEqual([]);
    expect(outcome.measured).toMatchObject({ notLive: 0, others: 0 });
    expect(outcome.measured.refused).toBeGreaterThan(0);
    expect(outcome.measured.slowestRefusalMs).toBeLessThan(2_000);
  }, 180_000);

  it('PostgreSQL restarted under engagement: only 503s with Retry-After, never a 500, and every acknowledged comment and favourite is stored', async () => {
    const outcome = await postgresRestartEngagement.run(faults, () => {});
    expect(outcome.failures).toEqual([]);
    expect(outcome.measured).toMatchObject({ errors500: 0, not503: 0, noRetryAfter: 0, lostComments: 0, lostFavourites: 0 });
  }, 120_000);

  it('the store out of space: 507 with a clear message, nothing kept, and uploads work again once space returns', async () => {
    const outcome = await storageFull.run(faults, () => {});
    expect(outcome.failures).toEqual([]);
    expect(outcome.measured).toMatchObject({ fullStatus: 507, chunkFullStatus: 507, newKeys: 0, againStatus: 201, identical: true });
  }, 120_000);

  it("the clock past a site's expiry: page, files and engagement answer 410 through the edge and both APIs", async () => {
    const outcome = await expiryClock.run(faults, () => {});
    expect(outcome.failures).toEqual([]);
    expect(outcome.measured.wrong).toBe(0);
    expect(outcome.measured.answered).toBe(36);
  }, 120_000);
});
