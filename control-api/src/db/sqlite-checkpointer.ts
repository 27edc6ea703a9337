/**
 * Checkpoints of the embedded database off the event loop. A checkpoint copies every page the
 * write-ahead log holds back into the database file and fsyncs it; run by the connection that
 * commits (SQLite's automatic checkpoint), it stalls every request in flight for tens of
 * milliseconds each time the log reaches its threshold, which is what a favourite's p99 was made of.
 * Here a thread with its own connection runs a passive checkpoint every EVERY_MS instead. The API's
 * connection keeps an automatic checkpoint at a higher threshold (`SAFETY_NET_PAGES`) as a safety net:
 * should the thread fall behind, or writes never pause long enough for the log to start over, that
 * one finishes the job as before (with little left to copy).
 */
import { Worker } from 'node:worker_threads';
import type { TCheckpointWorkerData } from './sqlite-checkpoint-worker.ts';

const EVERY_MS = 200;
/** The API connection's own automatic checkpoint while the thread runs (32 MB of 4 KB pages). */
export const SAFETY_NET_PAGES = 8_000;

export interface TSqliteCheckpointer {
  close(): Promise<void>;
}

export function startSqliteCheckpointer(path: string, onError: (message: string) => void, everyMs = EVERY_MS): TSqliteCheckpointer {
  const workerData: TCheckpointWorkerData = { path, everyMs };
  const worker = new Worker(new URL('./sqlite-checkpoint-worker.ts', import.meta.url), { workerData });
  worker.on('message', (message: { error?: string }) => {
    if (message.error !== undefined) onError(message.error);
  });
  worker.on('error', (err) => onError(err.message));
  // The process may end without closing it (a command that exits): the thread never holds it up.
  worker.unref();
  let closing: Promise<void> | undefined;
  return {
    close() {
      closing ??= new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        // Waited for now: without a reference the process could run out of work and exit before the
        // thread has closed its connection, and before whatever its owner does after close().
        worker.ref();
        worker.postMessage('close');
        // A thread that does not end by itself in a second is stopped.
        setTimeout(() => void worker.terminate(), 1_000).unref();
      });
      return closing;
    },
  };
}
