/** Chunk receipt without HTTP: per-chunk CRC-32 (or an older client's SHA-256), exact sizes, retries (identical or 409), part URLs on disk. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE } from '@dropsite/shared';
import { crc32Base64, crc32Hex, makeBytes, sha256 } from '@dropsite/testkit/bytes';
import { appErrorOf, chunkInput, chunkOf, initInput, startSessionParts, type TSessionParts } from '@dropsite/testkit/control-api/session-test-deps';
import { findChunk, insertChunk } from './upload-sessions.repository.ts';

describe('chunk receipt', () => {
  let parts: TSessionParts;
  let sessionId: string;
  let fileId: string;
  const bytes = makeBytes(2 * CHUNK_SIZE + 3);
  beforeEach(async () => {
    parts = await startSessionParts();
    const view = await parts.lifecycle.init(initInput([{ name: 'a.bin', bytes }]));
    sessionId = view.session.id;
    fileId = view.files[0]!.id;
  });
  afterEach(async () => {
    await parts.close();
  });

  it('stores a chunk and records its CRC-32; the same bytes again are a duplicate', async () => {
    expect(await parts.receipt.receiveChunk(chunkInput(sessionId, fileId, 2, chunkOf(bytes, 2)))).toEqual({ duplicate: false });
    expect(await findChunk(parts.deps.db, fileId, 2)).toMatchObject({ size: 3, checksum: crc32Hex(chunkOf(bytes, 2)) });
    expect(await parts.receipt.receiveChunk(chunkInput(sessionId, fileId, 2, chunkOf(bytes, 2), { crc32: false }))).toEqual({ duplicate: true });
  });

  it('refuses a chunk whose bytes are not its X-Chunk-Crc32 (400), and records nothing', async () => {
    const error = await appErrorOf(parts.receipt.receiveChunk(chunkInput(sessionId, fileId, 0, chunkOf(bytes, 0), { crc32: crc32Base64(chunkOf(bytes, 1)) })));
    expect([error.status, error.code]).toEqual([400, 'checksum_mismatch']);
    expect(await findChunk(parts.deps.db, fileId, 0)).toBeNull();
    expect(await parts.receipt.receiveChunk(chunkInput(sessionId, fileId, 0, chunkOf(bytes, 0)))).toEqual({ duplicate: false });
  });

  it('still checks an older client’s X-Chunk-Sha256: a wrong one is refused (400) and a right one accepted', async () => {
    const wrong = chunkInput(sessionId, fileId, 0, chunkOf(bytes, 0), { crc32: false, sha: sha256(chunkOf(bytes, 1)) });
    expect((await appErrorOf(parts.receipt.receiveChunk(wrong))).code).toBe('checksum_mismatch');
    expect(await findChunk(parts.deps.db, fileId, 0)).toBeNull();
    // Both headers: each is checked, and the right SHA-256 does not make up for a wrong CRC-32.
    const mixed = chunkInput(sessionId, fileId, 0, chunkOf(bytes, 0), { crc32: crc32Base64(chunkOf(bytes, 1)), sha: sha256(chunkOf(bytes, 0)) });
    expect((await appErrorOf(parts.receipt.receiveChunk(mixed))).code).toBe('checksum_mismatch');
    const right = chunkInput(sessionId, fileId, 0, chunkOf(bytes, 0), { crc32: false, sha: sha256(chunkOf(bytes, 0)) });
    expect(await parts.receipt.receiveChunk(right)).toEqual({ duplicate: false });
    expect(await findChunk(parts.deps.db, fileId, 0)).toMatchObject({ checksum: crc32Hex(chunkOf(bytes, 0)) });
  });

  it('compares a retry with a chunk recorded by its SHA-256 (before chunks were recorded by CRC-32) by its SHA-256', async () => {
    await insertChunk(parts.deps.db, { file_id: fileId, chunk_index: 1, size: CHUNK_SIZE, checksum: sha256(chunkOf(bytes, 1)), storage_key: 'k', etag: null, created_at: 0 });
    expect(await parts.receipt.receiveChunk(chunkInput(sessionId, fileId, 1, chunkOf(bytes, 1)))).toEqual({ duplicate: true });
    const other = Buffer.from(chunkOf(bytes, 1));
    other[5] = other[5]! ^ 1;
    expect((await appErrorOf(parts.receipt.receiveChunk(chunkInput(sessionId, fileId, 1, other)))).status).toBe(409);
  });

  it('answers 409 to other bytes for a chunk already received, and keeps the first', async () => {
    await parts.receipt.receiveChunk(chunkInput(sessionId, fileId, 0, chunkOf(bytes, 0)));
    const other = Buffer.from(chunkOf(bytes, 0));
    other[0] = other[0]! ^ 0xff;
    const error = await appErrorOf(parts.receipt.receiveChunk(chunkInput(sessionId, fileId, 0, other)));
    expect(error.status).toBe(409);
    expect(await findChunk(parts.deps.db, fileId, 0)).toMatchObject({ checksum: crc32Hex(chunkOf(bytes, 0)) });
  });

  it('refuses from the declared length alone: too long (413), too short (400), out of range (400)', async () => {
    const long = { ...chunkInput(sessionId, fileId, 2, chunkOf(bytes, 2)), contentLength: 4 };
    expect((await appErrorOf(parts.receipt.receiveChunk(long))).status).toBe(413);
    const short = { ...chunkInput(sessionId, fileId, 0, chunkOf(bytes, 0)), contentLength: CHUNK_SIZE - 1 };
    expect((await appErrorOf(parts.receipt.receiveChunk(short))).status).toBe(400);
    expect((await appErrorOf(parts.receipt.receiveChunk(chunkInput(sessionId, fileId, 3, new Uint8Array(1))))).status).toBe(400);
  });

  it('sends every chunk of a disk session through the API', async () => {
    const urls = await parts.receipt.createPartUrls(sessionId, fileId, [0, 2]);
    expect(urls).toEqual([
      { chunkIndex: 0, uploadUrl: `/api/upload-chunk/${sessionId}/${fileId}?chunk=0&last=false`, method: 'POST' },
      { chunkIndex: 2, uploadUrl: `/api/upload-chunk/${sessionId}/${fileId}?chunk=2&last=true`, method: 'POST' },
    ]);
  });
});
