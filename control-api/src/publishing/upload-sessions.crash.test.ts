/**
 * Checklist item 10: the API is killed with SIGKILL in the middle of a chunk. The restarted API
 * reports only durable chunks, the upload resumes without resending them, and the published
 * file's SHA-256 is the original's. The API runs as its own process (control-api/src/main.ts).
 */
import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE } from '@dropsite/shared';
import { createDatabase } from '../db/database.ts';
import { startApiProcess } from '@dropsite/testkit/control-api/api-process';
import { makeBytes, sha256 } from '@dropsite/testkit/bytes';
import { chunkOf, completeSession, initChunked, rawRequest, sendChunk, sessionStatus } from '@dropsite/testkit/control-api/upload-session-client';

const startApi = (dataDir: string) => startApiProcess(dataDir, { RUN_BUILDER: 'false' });

/** Bytes in the data file of the one multipart upload on disk storage (its parts are written into it in place). */
async function multipartDataSize(dataDir: string): Promise<number> {
  const root = path.join(dataDir, 'storage', '.multipart');
  const [upload] = await readdir(root);
  return upload === undefined ? 0 : (await stat(path.join(root, upload, 'data'))).size;
}

describe('an API killed mid-chunk (SIGKILL)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('restarts with only durable chunks listed, resumes, and publishes the identical file', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-kill9-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const bytes = makeBytes(2 * CHUNK_SIZE + 777);

    const first = await startApi(dataDir);
    cleanups.push(async () => {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
    });
    const init = await initChunked(first.url, [{ name: 'take-3.mov', bytes }]);
    expect(init.status).toBe(201);
    const sessionId = init.body.sessionId as string;
    const file = (init.body.uploadUrls as Array<{ fileId: string; uploadUrl: string }>)[0]!;
    expect((await sendChunk(first.url, file.uploadUrl, 0, chunkOf(bytes, 0))).status).toBe(200);
    const cut = rawRequest(`${first.url}${file.uploadUrl}?chunk=1`, {
      headers: { 'content-length': String(CHUNK_SIZE) },
      body: chunkOf(bytes, 1).subarray(0, CHUNK_SIZE / 2),
      endEarly: true,
    }).catch((error: unknown) => error);
    // Killed once part of chunk 1 is in the upload's data file: the API is in the middle of it.
    await expect.poll(() => multipartDataSize(dataDir), { timeout: 10_000, interval: 20 }).toBeGreaterThan(CHUNK_SIZE);
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    await cut;

    const second = await startApi(dataDir);
    cleanups.push(async () => {
      if (second.child.exitCode === null) {
        second.child.kill('SIGTERM');
        await once(second.child, 'exit');
      }
    });
    const status = await sessionStatus(second.url, sessionId);
    expect(status.status).toBe(200);
    expect(status.body.session).toMatchObject({ status: 'open', files: [{ fileId: file.fileId, receivedChunks: [0] }] });
    for (const i of [1, 2]) expect((await sendChunk(second.url, file.uploadUrl, i, chunkOf(bytes, i))).status).toBe(200);
    const done = await completeSession(second.url, sessionId, [{ fileId: file.fileId, sha256: sha256(bytes) }]);
    expect(done.status).toBe(200);
    expect(done.body.slug).toBe(init.body.projectSlug);

    const database = await createDatabase(`sqlite:${path.join(dataDir, 'dropsite.db')}`);
    try {
      const row = await database.db.selectFrom('files').select(['sha256', 'size']).executeTakeFirstOrThrow();
      expect(row).toEqual({ sha256: sha256(bytes), size: bytes.length });
    } finally {
      await database.close();
    }
  });
});
