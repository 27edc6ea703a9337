/** The build queue: in-process by default, BullMQ on Redis when configured. Jobs carry ids only. */

export interface TBuildJob {
  projectId: string;
  buildId: string;
  /** The project version the build renders; a job per (project, version) at most. */
  version: number;
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
   * Adds a build. Idempotent per project version: enqueueing the same
   * (projectId, version) again while it is waiting or running adds nothing.
   */
  enqueue(job: TBuildJob, options?: TEnqueueOptions): Promise<void>;
  /** Starts consuming jobs with the processor, at most `concurrency` at a time. */
  startWorker(processor: TBuildProcessor, options?: { concurrency?: number }): Promise<void>;
  /** Resolves when no job is waiting or running (used by tests and the CLI). */
  whenIdle(): Promise<void>;
  /** Counts of jobs by state. */
  counts(): Promise<{ waiting: number; active: number; failed: number; completed: number }>;
  /** Stops taking jobs, waits for running ones to finish, releases connections. */
  close(): Promise<void>;
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
