/**
 * The SQLite checkpointer's thread (`sqlite-checkpointer.ts`): its own connection to the database
 * file copies what the write-ahead log holds back into the file (a passive checkpoint: it never
 * waits for, nor holds up, the API's writer), so that copy and its fsync never stall the event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

export interface TCheckpointWorkerData {
  path: string;
  everyMs: number;
}

const { path, everyMs } = workerData as TCheckpointWorkerData;
const db = new SQLite(path);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

const timer = setInterval(() => {
  try {
    checkpoint.run();
  } catch (err) {
    // SQLITE_BUSY (another checkpoint under way) or a passing I/O error: the next turn tries again.
    parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
}, everyMs);

parentPort?.on('message', (message: unknown) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
