/**
 * Presigned part URLs of the direct-chunked protocol, against s3rver (which checks presigned
 * signatures and expiry as S3 does): a URL takes a body of exactly its chunk's size and lives
 * minutes, so a leaked or kept URL cannot fill the bucket with parts of any size for an hour.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_SIZE } from '@dropsite/shared';
import { createStorage } from '../storage/create-storage.ts';
import { MIN_PART_SIZE } from '../storage/storage.ts';
import { startS3rver, type TS3rver } from '@dropsite/testkit/control-api/s3rver';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { crc32Base64, makeBytes, sha256 } from '@dropsite/testkit/bytes';
import { FORM, callJson, chunkOf, completeSession, declare, initDirect, sendChunk, sessionStatus } from '@dropsite/testkit/control-api/upload-session-client';

const S3 = { region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true } as const;

describe('presigned part URLs', () => {
  let server: TS3rver;
  let endpoint: string;
  let dir: string;
  let app: TTestApp;
  /** How far the bucket's clock is ahead of this machine's. */
  let bucketAheadMs = 0;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-part-urls-'));
    ({ server, endpoint } = await startS3rver(dir, { now: () => Date.now() + bucketAheadMs }));
    app = await startTestApp({ storage: { driver: 's3', endpoint, bucket: 'part-urls', ...S3 }, config: { maxUploadBytes: 10 * CHUNK_SIZE } });
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('take a body of exactly the chunk size: a larger or smaller one is refused and nothing is stored', async () => {
    const bytes = makeBytes(CHUNK_SIZE + 10);
    const init = await initDirect(app.url, [{ name: 'cut.bin', bytes }]);
    expect(init.status).toBe(201);
    const { sessionId } = init.body as { sessionId: string };
    const fileId = (init.body.files as Array<{ fileId: string }>)[0]!.fileId;
    const reply = await callJson(app.url, 'POST', '/api/direct-upload/urls', { sessionId, fileId, chunkIndices: [0, 1] });
    const urls = reply.body.uploadUrls as Array<{ uploadUrl: string; method: string; headers?: Record<string, string> }>;
    expect(urls.map((u) => u.method)).toEqual(['PUT', 'PUT']);

    const oversized = await fetch(urls[0]!.uploadUrl, { method: 'PUT', body: new Uint8Array(CHUNK_SIZE + 1024 * 1024), headers: urls[0]!.headers });
    expect(oversized.status).toBe(403);
    expect(await oversized.text()).toContain('SignatureDoesNotMatch');
    const undersized = await fetch(urls[1]!.uploadUrl, { method: 'PUT', body: new Uint8Array(5), headers: urls[1]!.headers });
    expect(undersized.status).toBe(403);
    expect((await sessionStatus(app.url, sessionId)).body.session).toMatchObject({ files: [{ receivedChunks: [] }] });

    // The exact chunks go through, and the file publishes.
    for (const [i, u] of urls.entries()) {
      expect((await fetch(u.uploadUrl, { method: 'PUT', body: new Uint8Array(chunkOf(bytes, i)), headers: u.headers })).status).toBe(200);
    }
    const done = await completeSession(app.url, sessionId, [{ fileId, sha256: sha256(bytes) }], '/api/direct-upload/complete');
    expect(done.status).toBe(200);
  });

  it('live minutes, not an hour, and sign the length', async () => {
    const bytes = makeBytes(2000);
    const init = await initDirect(app.url, [{ name: 'notes.txt', bytes }]);
    const { sessionId } = init.body as { sessionId: string };
    const fileId = (init.body.files as Array<{ fileId: string }>)[0]!.fileId;
    const reply = await callJson(app.url, 'POST', '/api/direct-upload/urls', { sessionId, fileId, chunkIndices: [0] });
    const url = new URL((reply.body.uploadUrls as Array<{ uploadUrl: string }>)[0]!.uploadUrl);
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(600);
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
  });

  it('stop working once expired', async () => {
    const storage = await createStorage({ driver: 's3', endpoint, bucket: 'part-urls-expiry', ...S3 });
    try {
      const upload = await storage.createMultipartUpload('uploads/expiry.bin', { partSize: MIN_PART_SIZE });
      const signed = await storage.createPartUploadUrl(upload, 1, { expiresInSeconds: 1, size: 100 });
      // The bucket's clock past the URL's second (its signing time is kept to the second).
      bucketAheadMs = 2_100;
      const late = await fetch(signed!.url, { method: 'PUT', body: new Uint8Array(100), headers: signed!.headers });
      expect(late.status).toBe(403);
      expect(await late.text()).toContain('Request has expired');
      expect(await storage.listParts(upload)).toEqual([]);
      await storage.abortMultipartUpload(upload);
    } finally {
      bucketAheadMs = 0;
      await storage.close();
    }
  });
});

describe('presigned part URLs of an upload that declares chunk checksums', () => {
  let server: TS3rver;
  let endpoint: string;
  let dir: string;
  let app: TTestApp;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-part-sums-'));
    ({ server, endpoint } = await startS3rver(dir));
    app = await startTestApp({ storage: { driver: 's3', endpoint, bucket: 'part-sums', ...S3 }, config: { maxUploadBytes: 10 * CHUNK_SIZE } });
  });

  afterAll(async () => {
    await app?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const base64Sha256 = (bytes: Uint8Array) => Buffer.from(sha256(bytes), 'hex').toString('base64');

  async function openChecksummed(bytes: Uint8Array, chunkChecksum: 'sha256' | 'crc32' = 'sha256') {
    const init = await callJson(app.url, 'POST', '/api/direct-upload/init', {
      files: declare([{ name: 'film.bin', bytes }]),
      metadata: FORM,
      chunkChecksum,
    });
    expect(init.status).toBe(201);
    expect(init.body.chunkChecksum).toBe(chunkChecksum);
    return { sessionId: init.body.sessionId as string, fileId: (init.body.files as Array<{ fileId: string }>)[0]!.fileId };
  }

  // Each chunk checksum a session can be opened with: how the wizard's request names the sums, and the
  // header (base64 of the digest, as S3 takes it) the bucket checks each part against.
  const SIGNED_CHECKSUMS = [
    { algorithm: 'sha256', label: 'SHA-256', header: 'x-amz-checksum-sha256', field: 'chunkSha256', sum: (b: Uint8Array) => sha256(b), encoded: base64Sha256 },
    { algorithm: 'crc32', label: 'CRC-32 (the wizard’s)', header: 'x-amz-checksum-crc32', field: 'chunkCrc32', sum: crc32Base64, encoded: crc32Base64 },
  ] as const;

  it.each(SIGNED_CHECKSUMS)('sign each chunk’s $label: a body with other bytes, another checksum or none is refused', async ({ algorithm, header, field, sum, encoded }) => {
    const bytes = makeBytes(CHUNK_SIZE + 10);
    const { sessionId, fileId } = await openChecksummed(bytes, algorithm);
    const reply = await callJson(app.url, 'POST', '/api/direct-upload/urls', { sessionId, fileId, chunkIndices: [0, 1], [field]: [0, 1].map((i) => sum(chunkOf(bytes, i))) });
    expect(reply.status).toBe(200);
    const urls = reply.body.uploadUrls as Array<{ uploadUrl: string; method: string; headers?: Record<string, string> }>;
    for (const [i, u] of urls.entries()) {
      expect(u.method).toBe('PUT');
      expect(u.headers).toEqual({ [header]: encoded(chunkOf(bytes, i)) });
      expect(new URL(u.uploadUrl).searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(['content-length', 'host', header]);
    }

    // Same size, other bytes, with the checksum those bytes really have: not what was signed.
    const forged = new Uint8Array(chunkOf(bytes, 0).byteLength).fill(7);
    const otherSum = await fetch(urls[0]!.uploadUrl, { method: 'PUT', body: forged, headers: { [header]: encoded(forged) } });
    expect(otherSum.status).toBe(403);
    expect(await otherSum.text()).toContain('SignatureDoesNotMatch');
    // Without the signed checksum header at all.
    const noSum = await fetch(urls[0]!.uploadUrl, { method: 'PUT', body: forged });
    expect(noSum.status).toBe(403);
    expect(await noSum.text()).toContain('SignatureDoesNotMatch');
    // The signed checksum with other bytes: the bucket checks the body against it.
    const wrongBody = await fetch(urls[0]!.uploadUrl, { method: 'PUT', body: forged, headers: urls[0]!.headers });
    expect(wrongBody.status).toBe(400);
    expect(await wrongBody.text()).toContain('BadDigest');
    expect((await sessionStatus(app.url, sessionId)).body.session).toMatchObject({ files: [{ receivedChunks: [] }] });

    // The chunks themselves, with the headers the answer lists, go through and the file publishes.
    for (const [i, u] of urls.entries()) {
      expect((await fetch(u.uploadUrl, { method: 'PUT', body: new Uint8Array(chunkOf(bytes, i)), headers: u.headers })).status).toBe(200);
    }
    const done = await completeSession(app.url, sessionId, [{ fileId, sha256: sha256(bytes) }], '/api/direct-upload/complete');
    expect(done.status).toBe(200);
  });

  it('are refused without a checksum for every chunk asked', async () => {
    const bytes = makeBytes(CHUNK_SIZE + 10);
    const { sessionId, fileId } = await openChecksummed(bytes);
    const none = await callJson(app.url, 'POST', '/api/direct-upload/urls', { sessionId, fileId, chunkIndices: [0] });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ success: false, code: 'bad_request' });
    const short = await callJson(app.url, 'POST', '/api/direct-upload/urls', { sessionId, fileId, chunkIndices: [0, 1], chunkSha256: [sha256(chunkOf(bytes, 0))] });
    expect(short.status).toBe(400);
    const notHex = await callJson(app.url, 'POST', '/api/direct-upload/urls', { sessionId, fileId, chunkIndices: [0], chunkSha256: ['zz'] });
    expect(notHex.status).toBe(400);
  });

  it('take chunks through the API only with their SHA-256, which goes to the bucket with the part', async () => {
    const bytes = makeBytes(CHUNK_SIZE + 10);
    const { sessionId, fileId } = await openChecksummed(bytes);
    const path0 = `/api/upload-chunk/${sessionId}/${fileId}`;
    // Its CRC-32 alone is not what the bucket checks these parts against.
    const unhashed = await sendChunk(app.url, path0, 0, chunkOf(bytes, 0));
    expect(unhashed.status).toBe(400);
    for (const i of [0, 1]) expect((await sendChunk(app.url, path0, i, chunkOf(bytes, i), { sha: sha256(chunkOf(bytes, i)) })).status).toBe(200);
    const done = await completeSession(app.url, sessionId, [{ fileId, sha256: sha256(bytes) }], '/api/direct-upload/complete');
    expect(done.status).toBe(200);
  });
  it('of a CRC-32 session are refused without a well-formed CRC-32 for every chunk asked', async () => {
    const bytes = makeBytes(CHUNK_SIZE + 10);
    const { sessionId, fileId } = await openChecksummed(bytes, 'crc32');
    const ask = async (extra: Record<string, unknown>) =>
      (await callJson(app.url, 'POST', '/api/direct-upload/urls', { sessionId, fileId, chunkIndices: [0, 1], ...extra })).status;
    expect(await ask({})).toBe(400);
    expect(await ask({ chunkSha256: [0, 1].map((i) => sha256(chunkOf(bytes, i))) })).toBe(400);
    expect(await ask({ chunkCrc32: [crc32Base64(chunkOf(bytes, 0))] })).toBe(400);
    expect(await ask({ chunkCrc32: ['y/Q5Jh==', 'y/Q5Jh=='] })).toBe(400);
    expect(await ask({ chunkIndices: [0, 0], chunkCrc32: [crc32Base64(chunkOf(bytes, 0)), crc32Base64(chunkOf(bytes, 1))] })).toBe(400);
  });

  it('of a CRC-32 session take chunks through the API only with their CRC-32, which goes to the bucket with the part', async () => {
    const bytes = makeBytes(CHUNK_SIZE + 10);
    const { sessionId, fileId } = await openChecksummed(bytes, 'crc32');
    const path0 = `/api/upload-chunk/${sessionId}/${fileId}`;
    expect((await sendChunk(app.url, path0, 0, chunkOf(bytes, 0), { crc32: false, sha: sha256(chunkOf(bytes, 0)) })).status).toBe(400);
    for (const i of [0, 1]) expect((await sendChunk(app.url, path0, i, chunkOf(bytes, i))).status).toBe(200);
    const done = await completeSession(app.url, sessionId, [{ fileId, sha256: sha256(bytes) }], '/api/direct-upload/complete');
    expect(done.status).toBe(200);
  });
});
