/** The in-process build queue: no Redis, jobs live and die with the process. */
import type { Logger } from 'pino';
import { UnrecoverableBuildError, buildJobId, jobDataOf } from './build-queue.ts';
import type { BuildQueue, TBuildJob, TBuildProcessor, TEnqueueOptions } from './build-queue.ts';

export type TQueueLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export interface TInlineQueueOptions {
  defaultAttempts?: number;
  defaultBackoffMs?: number;
  log?: TQueueLogger;
}

interface TPendingJob {
  id: string;
  job: TBuildJob;
  attempts: number;
  backoffMs: number;
  /** Attempts already made. */
  attemptsMade: number;
}

const DEFAULT_ATTEMPTS = 3;
const DEFAULT_BACKOFF_MS = 5_000;

export const silentLogger: TQueueLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export function createInlineQueue(options: TInlineQueueOptions = {}): BuildQueue {
  const log = options.log ?? silentLogger;
  const defaultAttempts = options.defaultAttempts ?? DEFAULT_ATTEMPTS;
  const defaultBackoffMs = options.defaultBackoffMs ?? DEFAULT_BACKOFF_MS;

  const waiting: TPendingJob[] = [];
  const delayed = new Map<string, NodeJS.Timeout>();
  const active = new Map<string, Promise<void>>();
  /** Ids waiting, delayed or active: the window in which a duplicate enqueue is a no-op. */
  const pendingIds = new Set<string>();
  const idleWaiters: Array<() => void> = [];
  let processor: TBuildProcessor | undefined;
  let concurrency = 1;
  let completed = 0;
  let failed = 0;
  let closed = false;
  let drainScheduled = false;

  async function enqueue(job: TBuildJob, enqueueOptions: TEnqueueOptions = {}): Promise<void> {
    if (closed) throw new Error('Build queue is closed');
    const id = buildJobId(job);
    if (pendingIds.has(id)) {
      log.debug({ jobId: id }, 'build already queued; enqueue ignored');
      return;
    }
    pendingIds.add(id);
    waiting.push({
      id,
      job: jobDataOf(job),
      attempts: Math.max(1, enqueueOptions.attempts ?? defaultAttempts),
      backoffMs: enqueueOptions.backoffMs ?? defaultBackoffMs,
      attemptsMade: 0,
    });
    scheduleDrain();
  }

  async function startWorker(newProcessor: TBuildProcessor, workerOptions: { concurrency?: number } = {}): Promise<void> {
    if (closed) throw new Error('Build queue is closed');
    if (processor) throw new Error('The build queue worker is already running');
    processor = newProcessor;
    concurrency = Math.max(1, workerOptions.concurrency ?? 1);
    scheduleDrain();
  }

  /** Starting jobs from setImmediate keeps a long backlog from starving I/O between them. */
  function scheduleDrain(): void {
    if (drainScheduled) return;
    drainScheduled = true;
    setImmediate(() => {
      drainScheduled = false;
      startNextJob();
    });
  }

  function startNextJob(): void {
    if (closed || !processor || active.size >= concurrency) return;
    const next = waiting.shift();
    if (!next) return;
    const run = processor;
    // Deferred a microtask so the job is registered as active before a synchronous throw could settle it.
    active.set(
      next.id,
      Promise.resolve().then(() => runJob(next, run)),
    );
    if (waiting.length > 0) scheduleDrain();
  }

  async function runJob(pending: TPendingJob, run: TBuildProcessor): Promise<void> {
    pending.attemptsMade += 1;
    const context = { jobId: pending.id, attempt: pending.attemptsMade, attempts: pending.attempts };
    try {
      await run(pending.job, async (progress) => {
        log.debug({ ...context, ...progress }, 'build progress');
      });
      completed += 1;
      pendingIds.delete(pending.id);
    } catch (error) {
      settleFailure(pending, error, context);
    } finally {
      active.delete(pending.id);
      scheduleDrain();
      resolveIdleWaiters();
    }
  }

  function settleFailure(pending: TPendingJob, error: unknown, context: object): void {
    const unrecoverable = error instanceof UnrecoverableBuildError;
    if (unrecoverable || pending.attemptsMade >= pending.attempts || closed) {
      failed += 1;
      pendingIds.delete(pending.id);
      log.error({ ...context, err: error, unrecoverable }, 'build failed');
      return;
    }
    const delayMs = pending.backoffMs * 2 ** (pending.attemptsMade - 1);
    log.warn({ ...context, err: error, delayMs }, 'build attempt failed; retrying');
    const timer = setTimeout(() => {
      delayed.delete(pending.id);
      waiting.push(pending);
      scheduleDrain();
    }, delayMs);
    delayed.set(pending.id, timer);
  }

  function isIdle(): boolean {
    return waiting.length === 0 && active.size === 0 && delayed.size === 0;
  }

  function resolveIdleWaiters(): void {
    if (!isIdle()) return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  }

  async function whenIdle(): Promise<void> {
    if (isIdle()) return;
    await new Promise<void>((resolve) => idleWaiters.push(resolve));
  }

  async function counts() {
    return { waiting: waiting.length + delayed.size, active: active.size, failed, completed };
  }

  async function close(closeOptions: { graceMs?: number } = {}): Promise<void> {
    closed = true;
    // Nothing outlives the process in this driver, so retries still pending are dropped with it.
    for (const timer of delayed.values()) clearTimeout(timer);
    if (delayed.size > 0 || waiting.length > 0) {
      log.warn({ dropped: delayed.size + waiting.length }, 'build queue closed with builds still queued');
    }
    for (const pending of waiting) pendingIds.delete(pending.id);
    for (const id of delayed.keys()) pendingIds.delete(id);
    delayed.clear();
    waiting.length = 0;
    // Running builds finish, within the grace period if one is given; one still running after it is
    // left unfinished in the database, and the next start queues it again.
    const running = Promise.all(active.values());
    if (closeOptions.graceMs === undefined) await running;
    else {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([running.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), closeOptions.graceMs)))]);
      clearTimeout(timer);
      if (timedOut) log.warn({ running: active.size, graceMs: closeOptions.graceMs }, 'builds still running after the grace period: left for the next start');
    }
    resolveIdleWaiters();
  }

  return { driver: 'inline', enqueue, startWorker, whenIdle, counts, close };
}
