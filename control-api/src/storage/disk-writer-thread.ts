/** A disk writer thread (disk-writer.ts): each message is one put, done by putFileSync and answered. */
import { parentPort } from 'node:worker_threads';
import { errorCode } from './disk-files.ts';
import { putFileSync } from './disk-put-sync.ts';
import type { TPutFileRequest, TPutFileResponse } from './disk-writer.ts';

const port = parentPort;
if (!port) throw new Error('disk-writer-thread.ts runs as a worker thread');

port.on('message', ({ id, job }: TPutFileRequest) => {
  let response: TPutFileResponse;
  try {
    response = { id, ok: true, written: putFileSync(job) };
  } catch (error) {
    response = { id, ok: false, message: error instanceof Error ? error.message : String(error), code: errorCode(error) };
  }
  port.postMessage(response);
});
