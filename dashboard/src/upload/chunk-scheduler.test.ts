import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_PARALLELISM, CHUNK_RETRY_ATTEMPTS } from '@dropsite/shared';
import { assertAllChunksSent, runChunkQueue, sleepFor, type TChunkTask } from './chunk-scheduler.ts';
import { UploadError, isAbortError } from './upload-errors.ts';

const tasks = (n: number): TChunkTask[] => Array.from({ length: n }, (_, i) => ({ fileIndex: 0, chunkIndex: i }));

describe('runChunkQueue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends at most 3 chunks at a time and prepares them strictly in order', async () => {
    expect(CHUNK_PARALLELISM).toBe(3);
    let running = 0;
    let peak = 0;
    const prepared: number[] = [];
    const run = runChunkQueue({
      tasks: tasks(10),
      prepare: async (t) => {
        await new Promise((r) => setTimeout(r, 10 - t.chunkIndex)); // later chunks read faster: order must still hold
        prepared.push(t.chunkIndex);
        return t.chunkIndex;
      },
      send: async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 50));
        running--;
      },
    });
    await vi.runAllTimersAsync();
    await expect(run).resolves.toEqual({ done: 10, total: 10, failed: [] });
    expect(peak).toBe(3);
    expect(prepared).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('retries a failing chunk after 1 s, then 2 s, and succeeds on the third try', async () => {
    const tries: number[] = [];
    const run = runChunkQueue({
      tasks: tasks(1),
      prepare: async () => null,
      send: async (_t, _p, attempt) => {
        tries.push(Date.now());
        if (attempt < 3) throw new UploadError('Upload failed with status 503', { status: 503, isRetryable: true });
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(tries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(tries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(tries).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(tries).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(run).resolves.toMatchObject({ done: 1, failed: [] });
    expect(tries[1]! - tries[0]!).toBe(1000);
    expect(tries[2]! - tries[1]!).toBe(2000);
  });

  it("gives up after 3 tries with 'Chunk {n} upload failed' and keeps sending the others", async () => {
    expect(CHUNK_RETRY_ATTEMPTS).toBe(3);
    let triesOfChunk2 = 0;
    const run = runChunkQueue({
      tasks: tasks(4),
      prepare: async () => null,
      send: async (t) => {
        if (t.chunkIndex === 2) {
          triesOfChunk2++;
          throw new UploadError('Upload failed with status 500', { status: 500, isRetryable: true });
        }
      },
    });
    await vi.runAllTimersAsync();
    const result = await run;
    expect(triesOfChunk2).toBe(3);
    expect(result.done).toBe(3);
    expect(result.failed.map((f) => f.error.message)).toEqual(['Chunk 3 upload failed']);
    expect((result.failed[0]!.error.cause as Error).message).toBe('Upload failed with status 500');
    expect(() => assertAllChunksSent(result)).toThrow('Upload incomplete: 3/4 chunks, 1 failed');
    expect(() => assertAllChunksSent(result, 6)).toThrow('Upload incomplete: 9/10 chunks, 1 failed');
    expect(() => assertAllChunksSent({ done: 4, total: 4, failed: [] })).not.toThrow();
  });

  it('stops at once on a refusal no retry can cure (the session is gone)', async () => {
    const sent: number[] = [];
    const run = runChunkQueue({
      tasks: tasks(9),
      prepare: async () => null,
      send: async (t) => {
        sent.push(t.chunkIndex);
        await new Promise((r) => setTimeout(r, 10));
        if (t.chunkIndex === 1) throw new UploadError('Upload session not found', { status: 404, isSessionLost: true });
      },
    });
    const settled = run.catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    const error = await settled;
    expect(error).toBeInstanceOf(UploadError);
    expect((error as UploadError).isSessionLost).toBe(true);
    expect(sent.length).toBeLessThan(9);
  });

  it('waits for the connection to come back before retrying, without burning tries', async () => {
    let online = false;
    let attemptsMade = 0;
    let release: () => void = () => {};
    const run = runChunkQueue({
      tasks: tasks(1),
      prepare: async () => null,
      waitUntilOnline: () => (online ? Promise.resolve() : new Promise<void>((r) => (release = r))),
      send: async () => {
        attemptsMade++;
        if (!online) throw new UploadError('Chunk upload failed', { status: 0, isRetryable: true });
      },
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attemptsMade).toBe(1);
    online = true;
    release();
    await vi.advanceTimersByTimeAsync(1000);
    await expect(run).resolves.toMatchObject({ done: 1, failed: [] });
    expect(attemptsMade).toBe(2);
  });

  it('rejects with an AbortError when cancelled', async () => {
    const controller = new AbortController();
    const run = runChunkQueue({
      tasks: tasks(5),
      prepare: async () => null,
      send: (_t, _p, _a, signal) => sleepFor(10_000, signal),
      signal: controller.signal,
    });
    const settled = run.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await vi.runAllTimersAsync();
    expect(isAbortError(await settled)).toBe(true);
  });

  it('handles an empty queue', async () => {
    await expect(runChunkQueue({ tasks: [], prepare: async () => null, send: async () => {} })).resolves.toEqual({ done: 0, total: 0, failed: [] });
  });
});
