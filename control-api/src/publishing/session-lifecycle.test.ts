/** Session lifecycle without HTTP: init and its replay, status for resuming, abort, expiry. */
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE } from '@dropsite/shared';
import { makeBytes } from '@dropsite/testkit/bytes';
import { appErrorOf, chunkInput, chunkOf, initInput, startSessionParts, type TSessionParts } from '@dropsite/testkit/control-api/session-test-deps';
import { findUploadSessionById } from './upload-sessions.repository.ts';

describe('session lifecycle', () => {
  let parts: TSessionParts;
  beforeEach(async () => {
    parts = await startSessionParts();
  });
  afterEach(async () => {
    await parts.close();
  });

  it('opens a session: files cut into chunks, the link reserved', async () => {
    const view = await parts.lifecycle.init(
      initInput([
        { name: 'cut.mov', bytes: new Uint8Array(2 * CHUNK_SIZE + 5) },
        { name: 'empty.txt', bytes: new Uint8Array(0) },
      ]),
    );
    expect(view.replayed).toBe(false);
    expect(view.session).toMatchObject({ status: 'open', protocol: 'chunked' });
    expect(view.session.project_slug).toMatch(/^[a-z0-9-]+$/);
    expect(view.files.map((f) => [f.name, f.total_chunks, f.chunk_size])).toEqual([
      ['cut.mov', 3, CHUNK_SIZE],
      ['empty.txt', 1, CHUNK_SIZE],
    ]);
  });

  it('replays a retried init with the same Idempotency-Key, and refuses the key for another upload (409)', async () => {
    const files = [{ name: 'a.bin', bytes: new Uint8Array(10) }];
    const first = await parts.lifecycle.init(initInput(files, { idempotencyKey: 'key-1' }));
    const again = await parts.lifecycle.init(initInput(files, { idempotencyKey: 'key-1' }));
    expect(again).toMatchObject({ replayed: true, session: { id: first.session.id, project_slug: first.session.project_slug } });
    const other = await appErrorOf(parts.lifecycle.init(initInput([{ name: 'b.bin', bytes: new Uint8Array(10) }], { idempotencyKey: 'key-1' })));
    expect(other.status).toBe(409);
  });

  it('lists the chunks received so far, in order, for a resuming client', async () => {
    const bytes = makeBytes(3 * CHUNK_SIZE);
    const view = await parts.lifecycle.init(initInput([{ name: 'a.bin', bytes }]));
    const fileId = view.files[0]!.id;
    for (const i of [2, 0]) await parts.receipt.receiveChunk(chunkInput(view.session.id, fileId, i, chunkOf(bytes, i)));
    const status = await parts.lifecycle.describe(view.session.id);
    expect(status.files.map((f) => f.receivedChunks)).toEqual([[0, 2]]);
  });

  it('aborts: cuts a chunk still streaming, discards the stored bytes, then answers 410', async () => {
    const bytes = makeBytes(2 * CHUNK_SIZE);
    const view = await parts.lifecycle.init(initInput([{ name: 'a.bin', bytes }]));
    const fileId = view.files[0]!.id;
    await parts.receipt.receiveChunk(chunkInput(view.session.id, fileId, 0, chunkOf(bytes, 0)));
    const body = new PassThrough();
    body.write(chunkOf(bytes, 1).subarray(0, 1000));
    const streaming = appErrorOf(parts.receipt.receiveChunk(chunkInput(view.session.id, fileId, 1, chunkOf(bytes, 1), { body, cancel: () => body.destroy() })));
    await expect.poll(() => parts.receipt.inFlightCount()).toBe(1);
    await parts.lifecycle.abort(view.session.id);
    expect((await streaming).status).toBe(410);
    expect(parts.receipt.inFlightCount()).toBe(0);
    expect(await findUploadSessionById(parts.deps.db, view.session.id)).toMatchObject({ status: 'aborted' });
    const multipart = [];
    for await (const upload of parts.deps.storage.listMultipartUploads('uploads/')) multipart.push(upload);
    expect(multipart).toEqual([]);
    expect((await appErrorOf(parts.lifecycle.describe(view.session.id))).status).toBe(410);
    expect((await appErrorOf(parts.lifecycle.abort(view.session.id))).status).toBe(410);
  });

  it('expires a session left alone past its time (410), and unknown ids are 404', async () => {
    const view = await parts.lifecycle.init(initInput([{ name: 'a.bin', bytes: new Uint8Array(10) }]));
    parts.clock.advance(parts.deps.config.uploadSessionTtlMs + 1);
    expect((await appErrorOf(parts.lifecycle.describe(view.session.id))).status).toBe(410);
    expect((await appErrorOf(parts.lifecycle.describe('AAAAAAAAAAAAAAAAAAAAAA'))).status).toBe(404);
  });
});
