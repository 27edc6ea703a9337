/**
 * Sends chunks with bounded parallelism and retries (spec 9: up to 3 in parallel, 3 tries,
 * back-off in 1 s multiples). Pure scheduling: reading, hashing and sending are passed in.
 */
import { CHUNK_PARALLELISM, CHUNK_RETRY_ATTEMPTS } from '@dropsite/shared';
import { UPLOAD_MESSAGES, UploadError, createAbortError, isAbortError } from './upload-errors.ts';

export interface TChunkTask {
  /** Which file of the upload. */
  fileIndex: number;
  /** 0-based chunk index in the file. */
  chunkIndex: number;
}

export interface TChunkQueueOptions<T extends TChunkTask, P> {
  tasks: readonly T[];
  /**
   * Reads what a task sends (bytes, their hash). Called once per task, one at a time and in
   * task order, so whole-file hashing can follow along.
   */
  prepare: (task: T) => Promise<P>;
  /** Sends one try; throws an UploadError (isRetryable tells whether another try may help). */
  send: (task: T, prepared: P, attempt: number, signal: AbortSignal) => Promise<void>;
  parallelism?: number;
  attempts?: number;
  /** Wait before try `attempt + 1`; default attempt × 1 s (1 s, then 2 s). */
  backoffMs?: (attempt: number) => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Resolves once the browser is online again, so a dropped connection does not burn the tries. */
  waitUntilOnline?: (signal: AbortSignal) => Promise<void>;
  onChunkDone?: (task: T) => void;
  onChunkRetry?: (task: T, attempt: number, error: unknown) => void;
  signal?: AbortSignal;
}

export interface TChunkFailure<T> {
  task: T;
  /** 'Chunk {n} upload failed', with the last try's error as its cause. */
  error: UploadError;
}

export interface TChunkQueueResult<T> {
  done: number;
  total: number;
  failed: TChunkFailure<T>[];
}

export const defaultBackoffMs = (attempt: number) => attempt * 1000;

export function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(createAbortError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(createAbortError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs every task. Resolves with the count done and the chunks that failed every try; an upload
 * whose session is gone (or any non-retryable refusal) stops the queue and rejects with that
 * error, as does an abort.
 */
export async function runChunkQueue<T extends TChunkTask, P>(options: TChunkQueueOptions<T, P>): Promise<TChunkQueueResult<T>> {
  const { tasks, prepare, send, parallelism = CHUNK_PARALLELISM, attempts = CHUNK_RETRY_ATTEMPTS, backoffMs = defaultBackoffMs, sleep = sleepFor, waitUntilOnline } = options;
  const stop = new AbortController();
  const outer = options.signal;
  const onOuterAbort = () => stop.abort();
  if (outer?.aborted) throw createAbortError();
  outer?.addEventListener('abort', onOuterAbort, { once: true });

  let next = 0;
  let done = 0;
  let fatal: unknown = null;
  const failed: TChunkFailure<T>[] = [];
  // Preparation is chained so it happens strictly in task order.
  let preparing: Promise<unknown> = Promise.resolve();

  const runTask = async (task: T) => {
    const prepared = preparing.then(() => prepare(task));
    preparing = prepared.catch(() => {});
    const payload = await prepared;
    for (let attempt = 1; ; attempt++) {
      if (stop.signal.aborted) throw createAbortError();
      try {
        await send(task, payload, attempt, stop.signal);
        done++;
        options.onChunkDone?.(task);
        return;
      } catch (error) {
        if (isAbortError(error)) throw error;
        const canRetry = error instanceof UploadError ? error.isRetryable : true;
        if (!canRetry) throw error;
        if (attempt >= attempts) {
          failed.push({ task, error: new UploadError(UPLOAD_MESSAGES.chunkFailed(task.chunkIndex + 1), { cause: error, isRetryable: true }) });
          return;
        }
        options.onChunkRetry?.(task, attempt, error);
        if (waitUntilOnline) await waitUntilOnline(stop.signal);
        await sleep(backoffMs(attempt), stop.signal);
      }
    }
  };

  const worker = async () => {
    while (next < tasks.length && fatal === null) {
      const task = tasks[next++]!;
      try {
        await runTask(task);
      } catch (error) {
        if (fatal === null) fatal = error;
        stop.abort();
      }
    }
  };

  try {
    const workers = Array.from({ length: Math.max(1, Math.min(parallelism, tasks.length)) }, worker);
    await Promise.all(workers);
  } finally {
    outer?.removeEventListener('abort', onOuterAbort);
  }
  if (outer?.aborted) throw createAbortError();
  if (fatal !== null) throw fatal;
  return { done, total: tasks.length, failed };
}

/** The spec's summary error when some chunks failed every try. */
export function assertAllChunksSent<T>(result: TChunkQueueResult<T>, alreadyOnServer = 0): void {
  if (result.failed.length === 0) return;
  const total = result.total + alreadyOnServer;
  throw new UploadError(UPLOAD_MESSAGES.incomplete(result.done + alreadyOnServer, total, result.failed.length), {
    isRetryable: true,
    cause: result.failed[0]?.error,
  });
}
