/** The build queue on Redis through BullMQ: jobs survive restarts and several builder processes can share them. */
import { MetricsTime, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Job, JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { UnrecoverableBuildError, buildJobId, jobDataOf } from './build-queue.ts';
import type { BuildQueue, TBuildJob, TBuildProcessor, TEnqueueOptions } from './build-queue.ts';
import { silentLogger } from './inline-queue.ts';
import type { TQueueLogger } from './inline-queue.ts';
import { describeRedisUrl } from '../config/redis-url.ts';

export interface TBullmqQueueOptions {
  redisUrl: string;
  queueName?: string;
  /** Namespace of every Redis key BullMQ writes. */
  prefix?: string;
  defaultAttempts?: number;
  defaultBackoffMs?: number;
  log?: TQueueLogger;
}

const DEFAULT_QUEUE_NAME = 'builds';
const DEFAULT_PREFIX = 'dropsite';
const DEFAULT_ATTEMPTS = 3;
const DEFAULT_BACKOFF_MS = 5_000;
const IDLE_POLL_MS = 50;
/** Failed jobs kept for inspection; older ones are trimmed so Redis does not grow without bound. */
const FAILED_JOBS_KEPT = 1000;
/** States in which a job still has work ahead of it. */
const PENDING_STATES = ['waiting', 'prioritized', 'delayed', 'waiting-children'] as const;

export async function createBullmqQueue(options: TBullmqQueueOptions): Promise<BuildQueue> {
  const log = options.log ?? silentLogger;
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const defaultAttempts = options.defaultAttempts ?? DEFAULT_ATTEMPTS;
  const defaultBackoffMs = options.defaultBackoffMs ?? DEFAULT_BACKOFF_MS;

  // Without an offline queue a publish while Redis is down fails at once instead of hanging the HTTP request.
  const producerConnection = new Redis(options.redisUrl, { enableOfflineQueue: false, lazyConnect: true });
  producerConnection.on('error', (error: Error) => log.warn({ err: error }, 'build queue: Redis producer connection error'));
  try {
    await producerConnection.connect();
  } catch (error) {
    producerConnection.disconnect();
    throw new Error(`Build queue cannot connect to Redis at ${describeRedisUrl(options.redisUrl)}`, { cause: error });
  }
  try {
    await assertNoEviction(producerConnection, log);
  } catch (error) {
    producerConnection.disconnect();
    throw error;
  }

  const queue = new Queue<TBuildJob>(queueName, { connection: producerConnection, prefix });
  queue.on('error', (error: Error) => log.error({ err: error }, 'build queue error'));
  let worker: Worker<TBuildJob> | undefined;
  let workerConnection: Redis | undefined;
  /** Jobs this process's worker is running, with the lock token it holds on each. */
  const running = new Map<Job<TBuildJob>, string | undefined>();
  const noneRunning: Array<() => void> = [];
  const whenNoneRunning = (): Promise<void> => (running.size === 0 ? Promise.resolve() : new Promise((resolve) => noneRunning.push(resolve)));
  let closing: Promise<void> | undefined;

  async function enqueue(job: TBuildJob, enqueueOptions: TEnqueueOptions = {}): Promise<void> {
    const jobId = buildJobId(job);
    if (jobId.includes(':')) throw new Error(`Build job id ${JSON.stringify(jobId)} must not contain ':' (BullMQ key separator)`);
    await clearFinishedJob(jobId);
    const jobOptions: JobsOptions = {
      jobId,
      attempts: Math.max(1, enqueueOptions.attempts ?? defaultAttempts),
      backoff: { type: 'exponential', delay: enqueueOptions.backoffMs ?? defaultBackoffMs },
      // Removing completed jobs frees their id, so a later enqueue of the same version runs again.
      removeOnComplete: true,
      removeOnFail: { count: FAILED_JOBS_KEPT },
    };
    // BullMQ ignores an add whose id already exists, which is the dedupe while waiting or running.
    await queue.add('build', jobDataOf(job), jobOptions);
  }

  /** A failed job keeps its id; drop it so asking for the same build again actually runs it. */
  async function clearFinishedJob(jobId: string): Promise<void> {
    const state = await queue.getJobState(jobId);
    if (state === 'failed' || state === 'completed') await queue.remove(jobId);
  }

  async function startWorker(processor: TBuildProcessor, workerOptions: { concurrency?: number } = {}): Promise<void> {
    if (closing) throw new Error('Build queue is closed');
    if (worker) throw new Error('The build queue worker is already running');
    // BullMQ's blocking commands must wait for Redis however long it takes, hence no per-request retry limit.
    workerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    workerConnection.on('error', (error: Error) => log.warn({ err: error }, 'build queue: Redis worker connection error'));
    worker = new Worker<TBuildJob>(queueName, (job, token) => runJob(job, token, processor), {
      connection: workerConnection,
      prefix,
      concurrency: Math.max(1, workerOptions.concurrency ?? 1),
      // Metrics keep running totals of completed and failed jobs, which counts() needs once jobs are removed.
      metrics: { maxDataPoints: MetricsTime.ONE_WEEK },
    });
    worker.on('error', (error: Error) => log.error({ err: error }, 'build worker error'));
    worker.on('failed', (job, error) => {
      const context = { jobId: job?.id, attempt: job?.attemptsMade, attempts: job?.opts.attempts, err: error };
      log.warn(context, 'build attempt failed');
    });
    await worker.waitUntilReady();
  }

  async function runJob(job: Job<TBuildJob>, token: string | undefined, processor: TBuildProcessor): Promise<void> {
    running.set(job, token);
    try {
      await processor(job.data, (progress) => job.updateProgress({ ...progress }));
    } catch (error) {
      if (error instanceof UnrecoverableBuildError) throw new UnrecoverableError(error.message);
      throw error;
    } finally {
      running.delete(job);
      if (running.size === 0) for (const resolve of noneRunning.splice(0)) resolve();
    }
  }

  /**
   * Graceful: the worker takes no new job and its running ones finish, for `graceMs` at most; a job
   * still running then is handed back to the queue (another builder takes it) and the worker is closed
   * without waiting for it.
   */
  async function stopWorker(w: Worker<TBuildJob>, graceMs: number | undefined): Promise<void> {
    const deadline = graceMs === undefined ? undefined : delay(graceMs).then(() => false);
    const inTime = (promise: Promise<unknown>) => (deadline ? Promise.race([promise.then(() => true), deadline]) : promise.then(() => true));
    await w.pause(true);
    const handBack = async () => log.warn({ graceMs, jobs: await handBackRunning() }, 'builds still running after the grace period: handed back to the queue');
    if (!(await inTime(whenNoneRunning()))) {
      await handBack();
      await w.close(true);
      return;
    }
    // Then their completions are written. A job fetched just as the worker paused finishes too, or is
    // handed back at the deadline, the close then going on without being waited for (it cannot be forced once begun).
    if (!(await inTime(w.close()))) await handBack();
  }

  /**
   * Puts the jobs still running here back in the queue, waiting, their locks released: another builder
   * takes them at once instead of after BullMQ's stall interval. A job this process no longer holds
   * (it finished meanwhile, or its lock lapsed) is left as it is.
   */
  async function handBackRunning(): Promise<string[]> {
    const handedBack = await Promise.all(
      [...running].map(async ([job, token]) => {
        try {
          await job.moveToWait(token);
          return job.id;
        } catch (error) {
          log.warn({ jobId: job.id, err: error }, 'build queue: a running build could not be handed back; it is taken again after the stall interval');
          return undefined;
        }
      }),
    );
    return handedBack.filter((id) => id !== undefined);
  }

  async function countPending(): Promise<{ waiting: number; active: number }> {
    const jobCounts = await queue.getJobCounts(...PENDING_STATES, 'active');
    const waiting = PENDING_STATES.reduce((sum, state) => sum + (jobCounts[state] ?? 0), 0);
    return { waiting, active: jobCounts.active ?? 0 };
  }

  async function counts() {
    const [pending, completedMetrics, failedMetrics] = await Promise.all([countPending(), queue.getMetrics('completed', 0, 0), queue.getMetrics('failed', 0, 0)]);
    return { ...pending, failed: failedMetrics.meta.count, completed: completedMetrics.meta.count };
  }

  async function whenIdle(): Promise<void> {
    for (;;) {
      const { waiting, active } = await countPending();
      if (waiting + active === 0) return;
      await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
    }
  }

  async function close(closeOptions: { graceMs?: number } = {}): Promise<void> {
    closing ??= (async () => {
      if (worker) await stopWorker(worker, closeOptions.graceMs);
      await queue.close();
      await Promise.all([quit(workerConnection), quit(producerConnection)]);
    })();
    await closing;
  }

  return { driver: 'bullmq', enqueue, startWorker, whenIdle, counts, close };
}

/** BullMQ loses jobs silently when Redis evicts keys under memory pressure. */
export async function assertNoEviction(redis: Pick<Redis, 'config'>, log: TQueueLogger): Promise<void> {
  let policy: unknown;
  try {
    const reply: unknown = await redis.config('GET', 'maxmemory-policy');
    policy = Array.isArray(reply) ? reply[1] : undefined;
  } catch (error) {
    // Managed Redis services often disable CONFIG; the policy then has to be checked by hand.
    log.warn({ err: error }, 'build queue: cannot read Redis maxmemory-policy; make sure it is "noeviction"');
    return;
  }
  if (policy !== 'noeviction') {
    throw new Error(`Redis maxmemory-policy is ${JSON.stringify(policy)}; the build queue needs "noeviction" so jobs are never evicted`);
  }
}

async function quit(redis: Redis | undefined): Promise<void> {
  if (!redis || redis.status === 'end') return;
  await redis.quit().catch(() => redis.disconnect());
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
