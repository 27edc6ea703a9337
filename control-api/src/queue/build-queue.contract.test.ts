/** One behaviour contract for every build queue driver: in-process, and BullMQ on a real Redis. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isRedisUp, requireService } from '@dropsite/testkit/control-api/services';
import { UnrecoverableBuildError } from './build-queue.ts';
import type { BuildQueue, TBuildJob, TBuildProgress } from './build-queue.ts';
import { assertNoEviction, createBullmqQueue } from './bullmq-queue.ts';
import { createInlineQueue, silentLogger } from './inline-queue.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Every key this run writes lives under this prefix, so parallel runs never share a queue. */
const REDIS_PREFIX = `dropsite-test-${randomUUID()}`;
const redisAvailable = await requireService(`Redis at ${REDIS_URL}`, () => isRedisUp(REDIS_URL));

interface TQueueTestOptions {
  defaultAttempts?: number;
  defaultBackoffMs?: number;
}

for (const driver of ['inline', 'bullmq'] as const) {
  describe.skipIf(driver === 'bullmq' && !redisAvailable)(`BuildQueue contract (${driver})`, () => {
    const openQueues: BuildQueue[] = [];

    async function openQueue(options: TQueueTestOptions = {}): Promise<BuildQueue> {
      const queue =
        driver === 'inline' ? createInlineQueue(options) : await createBullmqQueue({ redisUrl: REDIS_URL, prefix: REDIS_PREFIX, queueName: `builds-${randomUUID()}`, ...options });
      openQueues.push(queue);
      return queue;
    }

    afterEach(async () => {
      await Promise.all(openQueues.splice(0).map((queue) => queue.close()));
    });

    afterAll(async () => {
      if (driver === 'bullmq') await deleteRedisKeys(`${REDIS_PREFIX}:*`);
    });

    it('runs a job enqueued before the worker started, and reports progress', async () => {
      const queue = await openQueue();
      const job = buildJob('p1', 1);
      await queue.enqueue(job);
      expect(await queue.counts()).toEqual({ waiting: 1, active: 0, failed: 0, completed: 0 });

      const seen: TBuildJob[] = [];
      const progressReports: Array<Promise<void>> = [];
      await queue.startWorker(async (received, reportProgress) => {
        seen.push(received);
        const report: TBuildProgress = { progress: 50, stage: 'render' };
        progressReports.push(reportProgress(report));
        await reportProgress({ progress: 100, stage: 'done' });
      });
      await queue.whenIdle();

      expect(seen).toEqual([job]);
      await expect(Promise.all(progressReports)).resolves.toBeDefined();
      expect(await queue.counts()).toEqual({ waiting: 0, active: 0, failed: 0, completed: 1 });
    });

    it('runs jobs in the order they were enqueued', async () => {
      const queue = await openQueue();
      for (const version of [1, 2, 3]) await queue.enqueue(buildJob('fifo', version));
      const order: number[] = [];
      await queue.startWorker(async (job) => {
        order.push(job.version);
      });
      await queue.whenIdle();
      expect(order).toEqual([1, 2, 3]);
    });

    it('runs a duplicate of a waiting job once', async () => {
      const queue = await openQueue();
      await queue.enqueue(buildJob('dup', 4, 'build-a'));
      await queue.enqueue(buildJob('dup', 4, 'build-b'));
      await queue.enqueue(buildJob('dup', 4, 'build-c'));
      await queue.enqueue(buildJob('dup', 5, 'build-d'));
      const seen: string[] = [];
      await queue.startWorker(async (job) => {
        seen.push(job.buildId);
      });
      await queue.whenIdle();
      expect(seen).toEqual(['build-a', 'build-d']);
    });

    it('ignores a duplicate of a running job, and runs it again once completed', async () => {
      const queue = await openQueue();
      const started = createDeferred();
      const release = createDeferred();
      const seen: string[] = [];
      await queue.startWorker(async (job) => {
        seen.push(job.buildId);
        started.resolve();
        await release.promise;
      });
      await queue.enqueue(buildJob('rerun', 1, 'first'));
      await started.promise;
      await queue.enqueue(buildJob('rerun', 1, 'while-running'));
      release.resolve();
      await queue.whenIdle();
      expect(seen).toEqual(['first']);

      await queue.enqueue(buildJob('rerun', 1, 'after-completion'));
      await queue.whenIdle();
      expect(seen).toEqual(['first', 'after-completion']);
    });

    it('retries a failing job with exponential backoff until it succeeds', async () => {
      const queue = await openQueue();
      const attemptTimes: number[] = [];
      await queue.startWorker(async () => {
        attemptTimes.push(performance.now());
        if (attemptTimes.length < 3) throw new Error(`flaky attempt ${attemptTimes.length}`);
      });
      await queue.enqueue(buildJob('flaky', 1), { attempts: 3, backoffMs: 20 });
      await queue.whenIdle();

      expect(attemptTimes).toHaveLength(3);
      const [first = 0, second = 0, third = 0] = attemptTimes;
      // A millisecond of slack: timers and Redis timestamps round to whole milliseconds.
      expect(second - first).toBeGreaterThanOrEqual(19);
      expect(third - second).toBeGreaterThanOrEqual(39);
      expect(await queue.counts()).toEqual({ waiting: 0, active: 0, failed: 0, completed: 1 });
    });

    it('does not retry an UnrecoverableBuildError', async () => {
      const queue = await openQueue();
      let calls = 0;
      await queue.startWorker(async () => {
        calls += 1;
        throw new UnrecoverableBuildError('the site template is invalid');
      });
      await queue.enqueue(buildJob('broken', 1), { attempts: 5, backoffMs: 10 });
      await queue.whenIdle();
      expect(calls).toBe(1);
      expect(await queue.counts()).toMatchObject({ failed: 1, completed: 0 });
    });

    it('gives up after the allowed attempts and counts the job as failed', async () => {
      const queue = await openQueue({ defaultAttempts: 3, defaultBackoffMs: 10 });
      let calls = 0;
      await queue.startWorker(async () => {
        calls += 1;
        throw new Error('always broken');
      });
      await queue.enqueue(buildJob('doomed', 1));
      await queue.whenIdle();
      expect(calls).toBe(3);
      expect(await queue.counts()).toEqual({ waiting: 0, active: 0, failed: 1, completed: 0 });
    });

    it('runs a build that failed for good again when it is enqueued again', async () => {
      const queue = await openQueue({ defaultAttempts: 1 });
      const seen: string[] = [];
      await queue.startWorker(async (job) => {
        seen.push(job.buildId);
        if (job.buildId === 'first') throw new Error('first try fails');
      });
      await queue.enqueue(buildJob('again', 2, 'first'));
      await queue.whenIdle();
      await queue.enqueue(buildJob('again', 2, 'second'));
      await queue.whenIdle();
      expect(seen).toEqual(['first', 'second']);
      expect(await queue.counts()).toMatchObject({ failed: 1, completed: 1 });
    });

    it('runs two jobs at once with concurrency 2', async () => {
      const queue = await openQueue();
      let running = 0;
      let mostAtOnce = 0;
      const bothStarted = createDeferred();
      await queue.startWorker(
        async () => {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          if (running === 2) bothStarted.resolve();
          // Without a second slot this would time out instead of meeting the other job.
          await Promise.race([bothStarted.promise, delay(3000)]);
          running -= 1;
        },
        { concurrency: 2 },
      );
      await queue.enqueue(buildJob('pair', 1));
      await queue.enqueue(buildJob('pair', 2));
      await queue.whenIdle();
      expect(mostAtOnce).toBe(2);
    });

    it('runs one job at a time by default', async () => {
      const queue = await openQueue();
      let running = 0;
      let mostAtOnce = 0;
      await queue.startWorker(async () => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await delay(30);
        running -= 1;
      });
      await queue.enqueue(buildJob('single', 1));
      await queue.enqueue(buildJob('single', 2));
      await queue.whenIdle();
      expect(mostAtOnce).toBe(1);
    });

    it('waits on close for the running job to finish', async () => {
      const queue = await openQueue();
      const started = createDeferred();
      let finished = false;
      await queue.startWorker(async () => {
        started.resolve();
        await delay(200);
        finished = true;
      });
      await queue.enqueue(buildJob('slow', 1));
      await started.promise;
      await queue.close();
      expect(finished).toBe(true);
    });
  });
}

describe.skipIf(!redisAvailable)('BullMQ build queue specifics', () => {
  it('fails fast when Redis cannot be reached', async () => {
    const startedAt = performance.now();
    await expect(createBullmqQueue({ redisUrl: 'redis://127.0.0.1:1', prefix: REDIS_PREFIX })).rejects.toThrow(/cannot connect to Redis/);
    expect(performance.now() - startedAt).toBeLessThan(5000);
  });

  it('hands a build still running after the grace period back to the queue, where another builder takes it at once', async () => {
    const queueName = `builds-${randomUUID()}`;
    const stopping = await createBullmqQueue({ redisUrl: REDIS_URL, prefix: REDIS_PREFIX, queueName });
    const other = await createBullmqQueue({ redisUrl: REDIS_URL, prefix: REDIS_PREFIX, queueName });
    const stuck = createDeferred();
    const started = createDeferred();
    try {
      await stopping.startWorker(async () => {
        started.resolve();
        await stuck.promise;
      });
      await stopping.enqueue(buildJob('handed-back', 3));
      await started.promise;
      // The build never ends on its own (it is released only at the end): close returns after the grace period regardless.
      await stopping.close({ graceMs: 300 });
      // Back in the queue, waiting: not left active for BullMQ's 30-second stall check to find.
      expect(await other.counts()).toMatchObject({ waiting: 1, active: 0 });

      const ranAgain: TBuildJob[] = [];
      await other.startWorker(async (job) => {
        ranAgain.push(job);
      });
      await other.whenIdle();
      // Taken at once by the other builder; run once, to completion.
      expect(ranAgain.map((job) => [job.projectId, job.version])).toEqual([['handed-back', 3]]);
      expect(await other.counts()).toMatchObject({ waiting: 0, active: 0, failed: 0 });
    } finally {
      stuck.resolve();
      await other.close();
    }
  }, 30_000);

  it('refuses a Redis that may evict keys, and only warns when CONFIG is unavailable', async () => {
    const redisWithPolicy = (policy: string) => ({ config: async () => ['maxmemory-policy', policy] }) as unknown as Pick<Redis, 'config'>;
    await expect(assertNoEviction(redisWithPolicy('allkeys-lru'), silentLogger)).rejects.toThrow(/noeviction/);
    await expect(assertNoEviction(redisWithPolicy('noeviction'), silentLogger)).resolves.toBeUndefined();

    const warnings: unknown[] = [];
    const restricted = {
      config: async () => {
        throw new Error("ERR unknown command 'CONFIG'");
      },
    } as unknown as Pick<Redis, 'config'>;
    await assertNoEviction(restricted, { ...silentLogger, warn: (entry: unknown) => warnings.push(entry) });
    expect(warnings).toHaveLength(1);
  });
});

function buildJob(siteId: string, version: number, buildId = `${siteId}-build-${version}`): TBuildJob {
  return { projectId: siteId, buildId, version };
}

function createDeferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function deleteRedisKeys(pattern: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
