/**
 * Writer threads for the disk driver: a put of bytes already in memory (a site page, a derived
 * picture, a sidecar of JSON) is done by one of them, all its file-system calls in one go
 * (disk-put-sync.ts), and answered with one message. The event loop then spends one round trip per
 * put instead of a dozen through libuv's thread pool. Two threads, so one's fsync does not hold up
 * the other's put; started on the first put, stopped after a while without one. A thread that fails
 * or exits fails the puts it held, which throw as a failed write does, and the next put starts another.
 */
import { Worker } from 'node:worker_threads';
import type { TWrittenFile } from './disk-files.ts';
import type { TPutFileJob } from './disk-put-sync.ts';

export interface TDiskWriter {
  put(job: TPutFileJob): Promise<TWrittenFile>;
}

export interface TPutFileRequest {
  id: number;
  job: TPutFileJob;
}

export type TPutFileResponse = { id: number; ok: true; written: TWrittenFile } | { id: number; ok: false; message: string; code: string | undefined };

const THREADS = 2;
const IDLE_MS = 30_000;

interface TSlot {
  worker: Worker;
  pending: Map<number, { resolve(written: TWrittenFile): void; reject(error: Error): void }>;
}

/** An error as the file-system call that failed would have thrown it: its message and code. */
function fileSystemError(message: string, code: string | undefined): Error {
  return code === undefined ? new Error(message) : Object.assign(new Error(message), { code });
}

export function createDiskWriter(): TDiskWriter {
  const slots: Array<TSlot | null> = Array.from({ length: THREADS }, () => null);
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | null = null;

  const discard = (slot: TSlot, error: Error) => {
    const index = slots.indexOf(slot);
    if (index >= 0) slots[index] = null;
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
    void slot.worker.terminate();
  };

  const stopAll = () => {
    for (const [index, slot] of slots.entries()) {
      slots[index] = null;
      void slot?.worker.terminate();
    }
  };

  const settle = (slot: TSlot) => {
    if (slot.pending.size > 0) return;
    slot.worker.unref();
    if (slots.some((other) => other !== null && other.pending.size > 0)) return;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(stopAll, IDLE_MS);
    idleTimer.unref();
  };

  const start = (index: number): TSlot => {
    const worker = new Worker(new URL('./disk-writer-thread.ts', import.meta.url));
    const slot: TSlot = { worker, pending: new Map() };
    worker.on('message', (response: TPutFileResponse) => {
      const pending = slot.pending.get(response.id);
      if (!pending) return;
      slot.pending.delete(response.id);
      if (response.ok) pending.resolve(response.written);
      else pending.reject(fileSystemError(response.message, response.code));
      settle(slot);
    });
    worker.on('error', (error) => discard(slot, new Error(`The disk writer thread failed: ${error.message}`)));
    worker.on('exit', () => discard(slot, new Error('The disk writer thread stopped')));
    slots[index] = slot;
    return slot;
  };

  /** The thread with the fewest puts waiting, started if it is not running. */
  const pick = (): TSlot => {
    let best: TSlot | null = null;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] ?? start(i);
      if (slot.pending.size === 0) return slot;
      if (!best || slot.pending.size < best.pending.size) best = slot;
    }
    return best!;
  };

  return {
    put(job) {
      return new Promise<TWrittenFile>((resolve, reject) => {
        if (idleTimer) clearTimeout(idleTimer);
        const slot = pick();
        const id = nextId++;
        slot.pending.set(id, { resolve, reject });
        slot.worker.ref();
        // The thread gets a copy of the bytes it owns (one copy, moved), not a clone made through
        // the message serializer; the caller keeps its own bytes.
        const bytes = new Uint8Array(job.bytes.byteLength);
        bytes.set(job.bytes);
        const request: TPutFileRequest = { id, job: { ...job, bytes } };
        slot.worker.postMessage(request, [bytes.buffer]);
      });
    },
  };
}
