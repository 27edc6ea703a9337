/** The build queue: in-process by default, BullMQ on Redis when configured. Jobs carry ids only. */

export interface TBuildJob {
  projectId: string;
  buildId: string;
  /** The site version the build renders; a job per (site, version) at most. */
  version: number;
  /** The request that queued the build, named in the builder's log lines. */
  requestId?: string;
  /** When the build was queued (epoch ms), for the queue-wait metric. */
  enqueuedAt?: number;
}

export interface TBuildProgress {
  progress: number;
  stage: string;
}

/** What a worker does with one job. Throwing retries it; throwing UnrecoverableBuildError fails it for good. */
export type TBuildProcessor = (job: TBuildJob, reportProgress: (p: TBuildProgress) => Promise<void>) => Promise<void>;

export interface TEnqueueOptions {
  /** Attempts in all, the first included. */
  attempts?: number;
  /** First retry delay in ms; doubles each retry. */
  backoffMs?: number;
}

export interface BuildQueue {
  readonly driver: 'inline' | 'bullmq';
  /**
   * Adds a build. Idempotent per site version: enqueueing the same
   * (projectId, version) again while it is waiting or running adds nothing.
   */
  enqueue(job: TBuildJob, options?: TEnqueueOptions): Promise<void>;
  /** Starts consuming jobs with the processor, at most `concurrency` at a time. */
  startWorker(processor: TBuildProcessor, options?: { concurrency?: number }): Promise<void>;
  /** Resolves when no job is waiting or running (used by tests and the CLI). */
  whenIdle(): Promise<void>;
  /** Counts of jobs by state. */
  counts(): Promise<{ waiting: number; active: number; failed: number; completed: number }>;
  /**
   * Stops taking jobs, waits for running ones to finish, releases connections. With `graceMs`, waits
   * that long at most: a job still running then is handed back (BullMQ: its lock lapses and another
   * builder takes it after the stall interval; in-process: the next start finds its build unfinished).
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export class UnrecoverableBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnrecoverableBuildError';
  }
}

export function buildJobId(job: Pick<TBuildJob, 'projectId' | 'version'>): string {
  return `site-${job.projectId}-v${job.version}`;
}

/** What a job carries: ids, and the request and time that queued it. */
export function jobDataOf(job: TBuildJob): TBuildJob {
  return {
    projectId: job.projectId,
    buildId: job.buildId,
    version: job.version,
    ...(job.requestId === undefined ? {} : { requestId: job.requestId }),
    ...(job.enqueuedAt === undefined ? {} : { enqueuedAt: job.enqueuedAt }),
  };
}
