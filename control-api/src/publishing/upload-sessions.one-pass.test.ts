/**
 * Completing a chunked upload on disk storage does not read the file again: its SHA-256 was computed
 * while the chunks arrived (in order, or out of order with early chunks read back as the gap closed).
 * The published file is still verified against the client's SHA-256, and a wrong one is still refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE } from '@dropsite/shared';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { makeBytes, sha256 } from '@dropsite/testkit/bytes';
import { chunkOf, completeSession, initChunked, sendChunk } from '@dropsite/testkit/control-api/upload-session-client';

const SIZE = 2 * CHUNK_SIZE + 4321;

describe('chunked upload in one pass (disk)', () => {
  let app: TTestApp;
  let hashedKeys: string[];
  beforeEach(async () => {
    app = await startTestApp({ config: { maxUploadBytes: 100 * CHUNK_SIZE } });
    hashedKeys = [];
    const hashObject = app.deps.storage.hashObject.bind(app.deps.storage);
    app.deps.storage.hashObject = async (key) => {
      hashedKeys.push(key);
      return hashObject(key);
    };
  });
  afterEach(async () => {
    await app.close();
  });

  async function upload(order: number[], declared?: string) {
    const bytes = makeBytes(SIZE);
    const init = await initChunked(app.url, [{ name: 'master.mov', bytes }]);
    expect(init.status).toBe(201);
    const sessionId = init.body.sessionId as string;
    const file = (init.body.uploadUrls as Array<{ fileId: string; uploadUrl: string }>)[0]!;
    for (const i of order) expect((await sendChunk(app.url, file.uploadUrl, i, chunkOf(bytes, i))).status).toBe(200);
    const done = await completeSession(app.url, sessionId, [{ fileId: file.fileId, sha256: declared ?? sha256(bytes) }]);
    return { done, bytes, fileId: file.fileId };
  }

  for (const order of [
    [0, 1, 2],
    [2, 0, 1],
  ]) {
    it(`publishes chunks sent as ${order.join(', ')} without reading the assembled file`, async () => {
      const { done, bytes, fileId } = await upload(order);
      expect(done.status).toBe(200);
      expect(hashedKeys).toEqual([]);
      const row = await app.deps.db.selectFrom('upload_files').select('sha256').where('id', '=', fileId).executeTakeFirstOrThrow();
      expect(row.sha256).toBe(sha256(bytes));
    });
  }

  it('still refuses a file whose SHA-256 is not the one declared', async () => {
    const { done } = await upload([0, 1, 2], sha256(Buffer.from('another file')));
    expect(done.status).toBe(409);
    expect(done.body.code).toBe('file_checksum_mismatch');
  });
});
