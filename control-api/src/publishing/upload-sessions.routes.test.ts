/**
 * The chunked and direct-chunked protocols end to end over HTTP, on disk storage and on S3 (s3rver):
 * every refusal, duplicates, reordering, a missing and a corrupted chunk, idempotent init and
 * complete, abort, the sweeper on a fake clock, and resuming on a restarted API.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE, UPLOADS_PREFIX, uploadKey } from '@dropsite/shared';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { startS3rver, type TS3rver } from '@dropsite/testkit/control-api/s3rver';
import type { TStorageConfig } from '../storage/create-storage.ts';
import { sweepUploadSessions } from './upload-sessions.cleanup.ts';
import { crc32Base64, makeBytes, sha256 } from '@dropsite/testkit/bytes';
import { callJson, chunkOf, completeSession, initChunked, initDirect, rawRequest, sendChunk, sessionStatus, type TJson } from '@dropsite/testkit/control-api/upload-session-client';

/** 3 chunks: 10 MiB, 10 MiB, 1 MiB + 17 bytes. */
const THREE_CHUNKS = 2 * CHUNK_SIZE + (1 << 20) + 17;
const HOUR = 3_600_000;

interface TInitChunked {
  sessionId: string;
  projectSlug: string;
  uploadUrls: Array<{ fileId: string; chunkSize: number; totalChunks: number; uploadUrl: string }>;
}

async function countRows(app: TTestApp, table: 'projects' | 'upload_chunks' | 'files') {
  const row = await app.deps.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function listPendingUploads(app: TTestApp): Promise<string[]> {
  const ids: string[] = [];
  for await (const u of app.deps.storage.listMultipartUploads(UPLOADS_PREFIX)) ids.push(u.uploadId);
  return ids;
}

/** Resolves once the app's storage is handed a chunk's bytes (a part being written); the part goes on as usual. */
function partStarted(app: TTestApp): Promise<void> {
  const { storage } = app.deps;
  const realPutPart = storage.putPart;
  return new Promise((resolve) => {
    storage.putPart = (...args) => {
      storage.putPart = realPutPart;
      resolve();
      return realPutPart.apply(storage, args);
    };
  });
}

/** Resolves once the app's server has the next request. */
function requestArrived(app: TTestApp): Promise<void> {
  return new Promise((resolve) => app.server.once('request', () => resolve()));
}

async function readObject(app: TTestApp, key: string): Promise<Buffer> {
  const { body } = await app.deps.storage.get(key);
  const parts: Buffer[] = [];
  for await (const p of body) parts.push(p as Buffer);
  return Buffer.concat(parts);
}

for (const driver of ['disk', 's3'] as const) {
  describe(`upload sessions (${driver})`, () => {
    let s3: { server: TS3rver; dir: string; endpoint: string } | undefined;
    let app: TTestApp;
    let bucketCounter = 0;

    const storageConfig = (): TStorageConfig | undefined =>
      s3
        ? {
            driver: 's3',
            endpoint: s3.endpoint,
            region: 'us-east-1',
            bucket: `uploads-${++bucketCounter}`,
            accessKeyId: 'S3RVER',
            secretAccessKey: 'S3RVER',
            forcePathStyle: true,
          }
        : undefined;

    beforeAll(async () => {
      if (driver === 's3') {
        const dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-s3rver-'));
        const started = await startS3rver(dir);
        s3 = { server: started.server, dir, endpoint: started.endpoint };
      }
    });
    afterAll(async () => {
      if (s3) {
        await s3.server.close();
        await rm(s3.dir, { recursive: true, force: true });
      }
    });

    describe('with a running app', () => {
      beforeEach(async () => {
        app = await startTestApp({ storage: storageConfig(), config: { maxUploadBytes: 100 * CHUNK_SIZE } });
      });
      afterEach(async () => {
        await app.close();
      });

      async function startUpload(bytes: Buffer, name = 'film.mov', extra: Record<string, unknown> = {}) {
        const init = await initChunked(app.url, [{ name, bytes }], extra);
        expect(init.status).toBe(201);
        const body = init.body as unknown as TInitChunked;
        return { ...body, file: body.uploadUrls[0]! };
      }

      it('publishes a file sent in chunks out of order, and nothing exists before complete', async () => {
        const bytes = makeBytes(THREE_CHUNKS);
        const { sessionId, projectSlug: siteSlug, file } = await startUpload(bytes);
        expect(sessionId).toMatch(/^[\w-]{22}$/);
        expect(file).toMatchObject({ chunkSize: CHUNK_SIZE, totalChunks: 3, uploadUrl: `/api/upload-chunk/${sessionId}/${file.fileId}` });

        for (const i of [2, 0, 1]) {
          const sent = await sendChunk(app.url, file.uploadUrl, i, chunkOf(bytes, i), { last: i === 2 });
          expect(sent.status, `chunk ${i}`).toBe(200);
          expect(sent.body.success).toBe(true);
        }
        const status = await sessionStatus(app.url, sessionId);
        expect(status.status).toBe(200);
        expect(status.headers.get('cache-control')).toBe('no-store');
        expect(status.body.session).toMatchObject({
          sessionId,
          projectSlug: siteSlug,
          protocol: 'chunked',
          status: 'open',
          files: [{ fileId: file.fileId, name: 'film.mov', size: THREE_CHUNKS, chunkSize: CHUNK_SIZE, totalChunks: 3, receivedChunks: [0, 1, 2] }],
        });
        expect((await fetch(`${app.url}/${siteSlug}`)).status).toBe(404);
        expect(await countRows(app, 'projects')).toBe(0);

        const done = await completeSession(app.url, sessionId, [{ fileId: file.fileId, sha256: sha256(bytes) }]);
        expect(done.status).toBe(200);
        expect(done.body).toMatchObject({ success: true, slug: siteSlug, url: `${app.url}/${siteSlug}`, sessionId });

        const rows = await app.deps.db.selectFrom('files').selectAll().execute();
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ id: file.fileId, name: 'film.mov', size: THREE_CHUNKS, sha256: sha256(bytes) });
        expect(sha256(await readObject(app, rows[0]!.storage_key))).toBe(sha256(bytes));
        expect(await listPendingUploads(app)).toEqual([]);
        await app.deps.queue.whenIdle();
        expect((await fetch(`${app.url}/${siteSlug}`)).status).toBe(200);
        expect((await sessionStatus(app.url, sessionId)).body.session).toMatchObject({ status: 'completed' });
      });

      it('takes the same chunk twice once, refuses other bytes for it with 409, and keeps the original', async () => {
        const bytes = makeBytes(CHUNK_SIZE + 5000);
        const { sessionId, file } = await startUpload(bytes);
        expect((await sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0))).status).toBe(200);
        const again = await sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0));
        expect(again.status).toBe(200);
        expect(again.body).toMatchObject({ success: true, duplicate: true });
        expect(await countRows(app, 'upload_chunks')).toBe(1);

        const other = Buffer.from(chunkOf(bytes, 0));
        other[123] = other[123]! ^ 0xff;
        const conflict = await sendChunk(app.url, file.uploadUrl, 0, other);
        expect(conflict.status).toBe(409);
        expect(conflict.body).toMatchObject({ success: false, code: 'conflict' });
        // Without a checksum header too: the bytes themselves are compared.
        expect((await sendChunk(app.url, file.uploadUrl, 0, other, { crc32: false })).status).toBe(409);

        expect((await sendChunk(app.url, file.uploadUrl, 1, chunkOf(bytes, 1))).status).toBe(200);
        const done = await completeSession(app.url, sessionId);
        expect(done.status).toBe(200);
        const row = await app.deps.db.selectFrom('files').select(['sha256', 'storage_key']).executeTakeFirstOrThrow();
        expect(row.sha256).toBe(sha256(bytes));
      });

      it('takes the same chunk sent twice at once, and parallel chunks of one file', async () => {
        const bytes = makeBytes(THREE_CHUNKS);
        const { sessionId, file } = await startUpload(bytes);
        const replies = await Promise.all([0, 0, 1, 2, 1].map((i) => sendChunk(app.url, file.uploadUrl, i, chunkOf(bytes, i))));
        expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
        expect(await countRows(app, 'upload_chunks')).toBe(3);
        expect((await completeSession(app.url, sessionId, [{ fileId: file.fileId, sha256: sha256(bytes) }])).status).toBe(200);
      });

      it('refuses a corrupted chunk with 400 checksum_mismatch and does not count it', async () => {
        const bytes = makeBytes(CHUNK_SIZE + 10);
        const { sessionId, file } = await startUpload(bytes);
        const corrupted = Buffer.from(chunkOf(bytes, 0));
        corrupted[corrupted.length - 1] = corrupted[corrupted.length - 1]! ^ 1;
        // Against its X-Chunk-Crc32 (the wizard's), and against an older client's X-Chunk-Sha256.
        for (const declared of [{ crc32: crc32Base64(chunkOf(bytes, 0)) }, { crc32: false as const, sha: sha256(chunkOf(bytes, 0)) }]) {
          const sent = await sendChunk(app.url, file.uploadUrl, 0, corrupted, declared);
          expect(sent.status).toBe(400);
          expect(sent.body).toMatchObject({ success: false, code: 'checksum_mismatch', error: 'Chunk checksum mismatch' });
        }
        expect((await sessionStatus(app.url, sessionId)).body.session).toMatchObject({ files: [{ receivedChunks: [] }] });
        // The connection stays usable and the good bytes go in afterwards.
        expect((await sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0))).status).toBe(200);
        expect((await sendChunk(app.url, file.uploadUrl, 1, chunkOf(bytes, 1))).status).toBe(200);
        expect((await completeSession(app.url, sessionId, [{ fileId: file.fileId, sha256: sha256(bytes) }])).status).toBe(200);
      });

      it('answers complete with a missing chunk with 409 listing it, and stays resumable', async () => {
        const bytes = makeBytes(THREE_CHUNKS);
        const { sessionId, file } = await startUpload(bytes);
        await sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0));
        await sendChunk(app.url, file.uploadUrl, 2, chunkOf(bytes, 2));
        const early = await completeSession(app.url, sessionId);
        expect(early.status).toBe(409);
        expect(early.body).toMatchObject({
          success: false,
          code: 'upload_incomplete',
          error: 'Upload incomplete: 2/3 chunks, 1 failed',
          missingChunks: [{ fileId: file.fileId, chunkIndices: [1] }],
        });
        expect((await sessionStatus(app.url, sessionId)).body.session).toMatchObject({ status: 'open', files: [{ receivedChunks: [0, 2] }] });
        await sendChunk(app.url, file.uploadUrl, 1, chunkOf(bytes, 1));
        const done = await completeSession(app.url, sessionId);
        expect(done.status).toBe(200);
        expect(await countRows(app, 'projects')).toBe(1);
      });

      it('completes once when complete is called twice and at the same time', async () => {
        const bytes = makeBytes(CHUNK_SIZE + 1);
        const { sessionId, projectSlug: siteSlug, file } = await startUpload(bytes);
        await sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0));
        await sendChunk(app.url, file.uploadUrl, 1, chunkOf(bytes, 1));
        const together = await Promise.all([0, 1, 2].map(() => completeSession(app.url, sessionId)));
        expect(together.map((r) => r.status)).toEqual([200, 200, 200]);
        const later = await completeSession(app.url, sessionId, [{ fileId: file.fileId, sha256: sha256(bytes) }]);
        expect(later.status).toBe(200);
        for (const r of [...together, later]) expect(r.body).toMatchObject({ slug: siteSlug, url: `${app.url}/${siteSlug}` });
        expect(await countRows(app, 'projects')).toBe(1);
        expect(await countRows(app, 'files')).toBe(1);
        // A chunk after publishing is refused rather than changing a published file.
        expect((await sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0))).status).toBe(409);
      });

      it('refuses a whole-file checksum mismatch with 409 and lets that file be sent again', async () => {
        const bytes = makeBytes(CHUNK_SIZE + 99);
        const { sessionId, file } = await startUpload(bytes);
        await sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0));
        await sendChunk(app.url, file.uploadUrl, 1, chunkOf(bytes, 1));
        const wrong = await completeSession(app.url, sessionId, [{ fileId: file.fileId, sha256: sha256(Buffer.from('something else')) }]);
        expect(wrong.status).toBe(409);
        expect(wrong.body).toMatchObject({ code: 'file_checksum_mismatch', error: 'File checksum mismatch', fileId: file.fileId });
        expect(await countRows(app, 'projects')).toBe(0);
        expect((await sessionStatus(app.url, sessionId)).body.session).toMatchObject({ status: 'open', files: [{ receivedChunks: [] }] });

        await sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0));
        await sendChunk(app.url, file.uploadUrl, 1, chunkOf(bytes, 1));
        expect((await completeSession(app.url, sessionId, [{ fileId: file.fileId, sha256: sha256(bytes) }])).status).toBe(200);
      });

      it('checks the SHA-256 declared at init', async () => {
        const bytes = makeBytes(5000);
        const init = await initChunked(app.url, [{ name: 'a.bin', bytes, declareSha: true }]);
        const { sessionId, uploadUrls } = init.body as unknown as TInitChunked;
        await sendChunk(app.url, uploadUrls[0]!.uploadUrl, 0, bytes);
        const mismatch = await completeSession(app.url, sessionId, [{ fileId: uploadUrls[0]!.fileId, sha256: sha256(Buffer.from('x')) }]);
        expect(mismatch.status).toBe(409);
        expect((await completeSession(app.url, sessionId)).status).toBe(200);
      });

      it('answers every bad chunk request with the right status before storing anything', async () => {
        const bytes = makeBytes(THREE_CHUNKS);
        const { sessionId, file } = await startUpload(bytes);
        const chunk0 = chunkOf(bytes, 0);
        for (const query of ['chunk=-1', 'chunk=1.5', 'chunk=1e3', 'chunk=01', 'chunk=abc', 'chunk=', 'chunk=0&chunk=1', '']) {
          expect((await sendChunk(app.url, file.uploadUrl, 0, chunk0, { query })).status, query).toBe(400);
        }
        expect((await sendChunk(app.url, file.uploadUrl, 3, new Uint8Array(10))).status).toBe(400);
        expect((await sendChunk(app.url, file.uploadUrl, 0, chunk0, { last: true })).status).toBe(400);
        expect((await sendChunk(app.url, file.uploadUrl, 2, chunkOf(bytes, 2), { last: false })).status).toBe(400);
        expect((await sendChunk(app.url, file.uploadUrl, 0, chunk0, { sha: 'md5:abc' })).status).toBe(400);
        for (const crc32 of ['', 'AAAA', 'AAAAAAA=', 'AAAAAB==', '12345678']) expect((await sendChunk(app.url, file.uploadUrl, 0, chunk0, { crc32 })).status, crc32).toBe(400);

        const tooBig = await sendChunk(app.url, file.uploadUrl, 2, makeBytes((1 << 20) + 18));
        expect(tooBig.status).toBe(413);
        const overChunkSize = await rawRequest(`${app.url}${file.uploadUrl}?chunk=0`, {
          headers: { 'content-length': String(CHUNK_SIZE + 1) },
          body: new Uint8Array(1000),
          endEarly: true,
        });
        expect(overChunkSize.status).toBe(413);
        const noLength = await rawRequest(`${app.url}${file.uploadUrl}?chunk=2`, { headers: { 'transfer-encoding': 'chunked' }, body: chunkOf(bytes, 2) });
        expect(noLength.status).toBe(413);
        expect((await sendChunk(app.url, file.uploadUrl, 2, chunkOf(bytes, 2).subarray(1))).status).toBe(400);

        const other = await startUpload(makeBytes(100), 'other.bin');
        expect((await sendChunk(app.url, `/api/upload-chunk/${sessionId}/${other.file.fileId}`, 0, new Uint8Array(100))).status).toBe(404);
        expect((await sendChunk(app.url, `/api/upload-chunk/${'A'.repeat(22)}/${file.fileId}`, 0, chunk0)).status).toBe(404);
        for (const bad of ['..', '%2e%2e', '..%2F..%2Fetc', `${sessionId}%00`, `..++x${'a'.repeat(17)}`, `${sessionId}%2F..`]) {
          const res = await fetch(`${app.url}/api/upload-chunk/${bad}/${file.fileId}?chunk=0`, { method: 'POST', body: new Uint8Array(chunk0) });
          expect([400, 404], bad).toContain(res.status);
        }
        expect((await sessionStatus(app.url, sessionId)).body.session).toMatchObject({ files: [{ receivedChunks: [] }] });
        expect(await countRows(app, 'upload_chunks')).toBe(0);
        // Still serving, and the good chunk still goes in.
        expect((await sendChunk(app.url, file.uploadUrl, 0, chunk0)).status).toBe(200);
      });

      it('refuses bad inits: over the plan limit (413), no files, blank title, past expiry (400)', async () => {
        const big = await callJson(app.url, 'POST', '/api/chunked-upload/init', {
          title: 'Huge',
          description: '',
          files: [
            { name: 'a.bin', size: 60 * CHUNK_SIZE, type: '' },
            { name: 'b.bin', size: 41 * CHUNK_SIZE, type: '' },
          ],
        });
        expect(big.status).toBe(413);
        expect(big.body.code).toBe('delivery_too_large');
        expect((await callJson(app.url, 'POST', '/api/chunked-upload/init', { title: 'x', files: [] })).status).toBe(400);
        expect((await initChunked(app.url, [{ name: 'a', bytes: new Uint8Array(3) }], { title: '  ' })).status).toBe(400);
        const past = await initChunked(app.url, [{ name: 'a', bytes: new Uint8Array(3) }], { expiryDate: '2001-01-01T00:00' });
        expect(past.status).toBe(400);
        expect(past.body.error).toBe('Expiry date must be in the future');
        expect((await callJson(app.url, 'POST', '/api/chunked-upload/init', { title: 'x', files: [{ name: 'a', size: -1 }] })).status).toBe(400);
        expect(await listPendingUploads(app)).toEqual([]);
      });

      it('gives the same session for a retried init with the same Idempotency-Key', async () => {
        const files = [{ name: 'a.bin', bytes: new Uint8Array(10) }];
        const first = await initChunked(app.url, files, {}, { 'idempotency-key': 'key-123' });
        const second = await initChunked(app.url, files, {}, { 'idempotency-key': 'key-123' });
        expect(first.status).toBe(201);
        expect(second.status).toBe(200);
        expect(second.body).toEqual(first.body);
        const different = await initChunked(app.url, files, { title: 'Another site' }, { 'idempotency-key': 'key-123' });
        expect(different.status).toBe(409);
        const fresh = await initChunked(app.url, files, {}, { 'idempotency-key': 'key-456' });
        expect(fresh.body.sessionId).not.toBe(first.body.sessionId);
        expect((await initChunked(app.url, files, {}, { 'idempotency-key': 'bad key with spaces' })).status).toBe(400);
      });

      it('publishes empty files and files of exactly one chunk', async () => {
        const exact = makeBytes(CHUNK_SIZE);
        const init = await initChunked(app.url, [
          { name: 'empty.txt', bytes: new Uint8Array(0), type: 'text/plain' },
          { name: 'exact.bin', bytes: exact },
        ]);
        const { sessionId, uploadUrls } = init.body as unknown as TInitChunked;
        expect(uploadUrls.map((u) => u.totalChunks)).toEqual([1, 1]);
        expect((await sendChunk(app.url, uploadUrls[0]!.uploadUrl, 0, new Uint8Array(0), { last: true })).status).toBe(200);
        expect((await sendChunk(app.url, uploadUrls[1]!.uploadUrl, 0, exact, { last: true })).status).toBe(200);
        const done = await completeSession(app.url, sessionId);
        expect(done.status).toBe(200);
        const rows = await app.deps.db.selectFrom('files').select(['name', 'size', 'sha256']).orderBy('position').execute();
        expect(rows).toEqual([
          { name: 'empty.txt', size: 0, sha256: sha256(new Uint8Array(0)) },
          { name: 'exact.bin', size: CHUNK_SIZE, sha256: sha256(exact) },
        ]);
      });

      it('aborts with DELETE: 204, then 410 for every call, and no bytes left', async () => {
        const bytes = makeBytes(CHUNK_SIZE + 100);
        const { sessionId, file } = await startUpload(bytes);
        await sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0));
        expect(await listPendingUploads(app)).toHaveLength(1);
        const deleted = await callJson(app.url, 'DELETE', `/api/upload-session/${sessionId}`);
        expect(deleted.status).toBe(204);
        expect((await sessionStatus(app.url, sessionId)).status).toBe(410);
        expect((await sendChunk(app.url, file.uploadUrl, 1, chunkOf(bytes, 1))).status).toBe(410);
        expect((await completeSession(app.url, sessionId)).status).toBe(410);
        expect((await callJson(app.url, 'DELETE', `/api/upload-session/${sessionId}`)).status).toBe(410);
        expect(await listPendingUploads(app)).toEqual([]);
        expect(await countRows(app, 'upload_chunks')).toBe(0);
        expect((await callJson(app.url, 'DELETE', `/api/upload-session/${'B'.repeat(22)}`)).status).toBe(404);
        expect((await callJson(app.url, 'DELETE', '/api/upload-session/..')).status).toBe(404);
      });

      it('aborts while a chunk is streaming: 204, the chunk fails, nothing is left', async () => {
        const bytes = makeBytes(CHUNK_SIZE + 100);
        const { sessionId, file } = await startUpload(bytes);
        const half = chunkOf(bytes, 0).subarray(0, CHUNK_SIZE / 2);
        const started = partStarted(app);
        const streaming = rawRequest(`${app.url}${file.uploadUrl}?chunk=0`, {
          headers: { 'content-length': String(CHUNK_SIZE) },
          body: half,
          endEarly: true,
        }).catch((error: unknown) => error);
        await started;
        // A retry of the same chunk waits for the first one's lock; the abort cuts it too.
        const retried = requestArrived(app);
        const waiting = sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0)).then(
          (reply) => reply.status,
          () => 'connection reset',
        );
        await retried;
        expect((await callJson(app.url, 'DELETE', `/api/upload-session/${sessionId}`)).status).toBe(204);
        await streaming;
        expect([410, 'connection reset']).toContain(await waiting);
        expect(await listPendingUploads(app)).toEqual([]);
        expect(await countRows(app, 'upload_chunks')).toBe(0);
        if (driver === 'disk') {
          const { readdir } = await import('node:fs/promises');
          expect(await readdir(path.join(app.dataDir, 'storage', '.multipart')).catch(() => [])).toEqual([]);
        }
      });

      it('answers 507 when storage is full, counts nothing, and accepts the chunk once space is back', async () => {
        const bytes = makeBytes(CHUNK_SIZE + 10);
        const { sessionId, file } = await startUpload(bytes);
        const storage = app.deps.storage;
        const realPutPart = storage.putPart;
        storage.putPart = async (_upload, _n, body) => {
          // Reads a little, then fails the way a full disk does.
          for await (const _ of body as AsyncIterable<unknown>) break;
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        };
        const full = await sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0));
        expect(full.status).toBe(507);
        expect(full.body.error).toBe('Storage is full. Please try again later.');
        storage.putPart = realPutPart;
        expect((await sessionStatus(app.url, sessionId)).body.session).toMatchObject({ files: [{ receivedChunks: [] }] });
        expect((await sendChunk(app.url, file.uploadUrl, 0, chunkOf(bytes, 0))).status).toBe(200);
        expect((await sendChunk(app.url, file.uploadUrl, 1, chunkOf(bytes, 1))).status).toBe(200);
        expect((await completeSession(app.url, sessionId, [{ fileId: file.fileId, sha256: sha256(bytes) }])).status).toBe(200);
      });

      it('answers status and complete for unknown or malformed ids with 404, and a missing id with 400', async () => {
        expect((await sessionStatus(app.url, 'C'.repeat(22))).status).toBe(404);
        expect((await sessionStatus(app.url, '../../etc/passwd')).status).toBe(404);
        expect((await callJson(app.url, 'GET', '/api/upload-session/status')).status).toBe(400);
        expect((await completeSession(app.url, 'D'.repeat(22))).status).toBe(404);
        expect((await completeSession(app.url, 'x\u0000y')).status).toBe(404);
      });

      it('publishes through the direct-chunked protocol', async () => {
        const files = [makeBytes(CHUNK_SIZE + 4321), makeBytes(2000)];
        const init = await initDirect(app.url, [
          { name: 'cut.mp4', bytes: files[0]!, type: 'video/mp4' },
          { name: 'notes.txt', bytes: files[1]!, type: 'text/plain' },
        ]);
        expect(init.status).toBe(201);
        const { sessionId, projectSlug: siteSlug } = init.body as { sessionId: string; projectSlug: string };
        const declared = init.body.files as Array<{ fileId: string; chunkCount: number; chunkSize: number }>;
        expect(declared.map((f) => [f.chunkCount, f.chunkSize])).toEqual([
          [2, CHUNK_SIZE],
          [1, CHUNK_SIZE],
        ]);

        for (const [fi, f] of declared.entries()) {
          const urls = await callJson(app.url, 'POST', '/api/direct-upload/urls', { sessionId, fileId: f.fileId, chunkIndices: Array.from({ length: f.chunkCount }, (_, i) => i) });
          expect(urls.status).toBe(200);
          const list = urls.body.uploadUrls as Array<{ chunkIndex: number; uploadUrl: string; method: 'POST' | 'PUT'; headers?: Record<string, string> }>;
          expect(list.map((u) => u.chunkIndex)).toEqual(Array.from({ length: f.chunkCount }, (_, i) => i));
          for (const u of list) {
            const body = new Uint8Array(chunkOf(files[fi]!, u.chunkIndex));
            if (driver === 's3') {
              expect(u.method).toBe('PUT');
              expect(u.uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+X-Amz-Signature=/);
              const put = await fetch(u.uploadUrl, { method: 'PUT', body, headers: u.headers });
              expect(put.status).toBe(200);
              // The browser never reports ETags; the server reads the parts back with ListParts.
              expect(put.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
            } else {
              expect(u.method).toBe('POST');
              expect(u.uploadUrl).toMatch(new RegExp(`^/api/upload-chunk/${sessionId}/${f.fileId}\\?chunk=${u.chunkIndex}`));
              expect((await fetch(`${app.url}${u.uploadUrl}`, { method: 'POST', body })).status).toBe(200);
            }
          }
        }
        // Parts that went straight to the bucket count as received too.
        const status = await sessionStatus(app.url, sessionId);
        expect(status.body.session).toMatchObject({ protocol: 'direct-chunked', files: [{ receivedChunks: [0, 1] }, { receivedChunks: [0] }] });

        const bad = await callJson(app.url, 'POST', '/api/direct-upload/urls', { sessionId, fileId: declared[0]!.fileId, chunkIndices: [2] });
        expect(bad.status).toBe(400);
        const done = await completeSession(
          app.url,
          sessionId,
          declared.map((f, i) => ({ fileId: f.fileId, sha256: sha256(files[i]!) })),
          '/api/direct-upload/complete',
        );
        expect(done.status).toBe(200);
        expect(done.body).toMatchObject({ success: true, slug: siteSlug, sessionId });
        const rows = await app.deps.db.selectFrom('files').select(['sha256']).orderBy('position').execute();
        expect(rows.map((r) => r.sha256)).toEqual(files.map(sha256));
      });

      if (driver === 's3') {
        it('refuses a direct part of the wrong size at complete, listing it as missing', async () => {
          const bytes = makeBytes(CHUNK_SIZE + 10);
          const init = await initDirect(app.url, [{ name: 'x.bin', bytes }]);
          const { sessionId } = init.body as { sessionId: string };
          const fileId = (init.body.files as Array<{ fileId: string }>)[0]!.fileId;
          const urls = (await callJson(app.url, 'POST', '/api/direct-upload/urls', { sessionId, fileId, chunkIndices: [0, 1] })).body.uploadUrls as Array<{ uploadUrl: string }>;
          await fetch(urls[0]!.uploadUrl, { method: 'PUT', body: new Uint8Array(chunkOf(bytes, 0)) });
          await fetch(urls[1]!.uploadUrl, { method: 'PUT', body: new Uint8Array(5) });
          const early = await completeSession(app.url, sessionId, undefined, '/api/direct-upload/complete');
          expect(early.status).toBe(409);
          expect(early.body.missingChunks).toEqual([{ fileId, chunkIndices: [1] }]);
          await fetch(urls[1]!.uploadUrl, { method: 'PUT', body: new Uint8Array(chunkOf(bytes, 1)) });
          expect((await completeSession(app.url, sessionId, [{ fileId, sha256: sha256(bytes) }], '/api/direct-upload/complete')).status).toBe(200);
        });
      }
    });

    it('resumes on a restarted API without resending what was stored, byte for byte', async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-restart-'));
      const storage = storageConfig();
      const bytes = makeBytes(THREE_CHUNKS);
      let first: TTestApp | undefined = await startTestApp({ dataDir, storage });
      try {
        const init = await initChunked(first.url, [{ name: 'raw.mov', bytes }]);
        const { sessionId, uploadUrls } = init.body as unknown as TInitChunked;
        const file = uploadUrls[0]!;
        expect((await sendChunk(first.url, file.uploadUrl, 0, chunkOf(bytes, 0))).status).toBe(200);
        // Chunk 1 is cut off halfway by the API going down.
        const started = partStarted(first);
        const cut = rawRequest(`${first.url}${file.uploadUrl}?chunk=1`, {
          headers: { 'content-length': String(CHUNK_SIZE) },
          body: chunkOf(bytes, 1).subarray(0, CHUNK_SIZE / 3),
          endEarly: true,
        }).catch((error: unknown) => error);
        await started;
        await first.close();
        first = undefined;
        await cut;

        const second = await startTestApp({ dataDir, storage });
        try {
          const status = await sessionStatus(second.url, sessionId);
          expect(status.status).toBe(200);
          expect(status.body.session).toMatchObject({ status: 'open', files: [{ receivedChunks: [0] }] });
          for (const i of [1, 2]) expect((await sendChunk(second.url, file.uploadUrl, i, chunkOf(bytes, i))).status).toBe(200);
          const done = await completeSession(second.url, sessionId, [{ fileId: file.fileId, sha256: sha256(bytes) }]);
          expect(done.status).toBe(200);
          const row = await second.deps.db.selectFrom('files').select(['sha256', 'storage_key']).executeTakeFirstOrThrow();
          expect(row.sha256).toBe(sha256(bytes));
          expect(sha256(await readObject(second, row.storage_key))).toBe(sha256(bytes));
        } finally {
          await second.close();
        }
      } finally {
        await first?.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    });

    it('sweeps abandoned sessions and orphaned multipart uploads after the TTL (fake clock)', async () => {
      const clock = createFakeClock(Date.now());
      const swept = await startTestApp({ clock, storage: storageConfig(), config: { uploadSessionTtlMs: 24 * HOUR } });
      try {
        const bytes = makeBytes(CHUNK_SIZE + 50);
        const init = await initChunked(swept.url, [{ name: 'left.bin', bytes }]);
        const { sessionId, uploadUrls } = init.body as unknown as TInitChunked;
        await sendChunk(swept.url, uploadUrls[0]!.uploadUrl, 0, chunkOf(bytes, 0));
        const kept = await initChunked(swept.url, [{ name: 'kept.bin', bytes: new Uint8Array(10) }]);
        const orphan = await swept.deps.storage.createMultipartUpload(uploadKey('nobody', 'nothing'), { partSize: CHUNK_SIZE });
        const abandonedUploads = await listPendingUploads(swept);
        expect(abandonedUploads).toHaveLength(2);

        clock.advance(23 * HOUR);
        // Activity keeps a session alive (its file's multipart upload is made by this first chunk).
        await sendChunk(swept.url, (kept.body as unknown as TInitChunked).uploadUrls[0]!.uploadUrl, 0, new Uint8Array(10));
        const keptUploads = (await listPendingUploads(swept)).filter((id) => !abandonedUploads.includes(id));
        expect(keptUploads).toHaveLength(1);
        expect(await sweepUploadSessions(swept.deps)).toEqual({ expiredSessions: 0, orphanUploads: 0, deletedSessions: 0 });

        clock.advance(2 * HOUR);
        const result = await sweepUploadSessions(swept.deps);
        expect(result).toEqual({ expiredSessions: 1, orphanUploads: 1, deletedSessions: 0 });
        expect(await listPendingUploads(swept)).toEqual(keptUploads);
        expect(abandonedUploads).toContain(orphan.uploadId);
        expect((await sessionStatus(swept.url, sessionId)).status).toBe(410);
        expect((await sendChunk(swept.url, uploadUrls[0]!.uploadUrl, 1, chunkOf(bytes, 1))).status).toBe(410);
        expect((await sessionStatus(swept.url, (kept.body as { sessionId: string }).sessionId)).status).toBe(200);

        clock.advance(25 * HOUR);
        const later = await sweepUploadSessions(swept.deps);
        expect(later.deletedSessions).toBe(1);
        expect((await sessionStatus(swept.url, sessionId)).status).toBe(404);
      } finally {
        await swept.close();
      }
    });
  });
}

describe('direct upload (one request) and its build progress', () => {
  let app: TTestApp;
  afterEach(async () => {
    await app.close();
  });

  it('answers { success, url, slug } once stored, and reports the real build progress until complete', async () => {
    app = await startTestApp({ startWorker: false });
    const form = new FormData();
    form.append('title', 'Direct delivery');
    form.append('description', 'Large files');
    form.append('authorName', 'Mara');
    form.append('files', new Blob([new Uint8Array(makeBytes(300_000))], { type: 'application/octet-stream' }), 'master.bin');
    const res = await fetch(`${app.url}/api/direct-upload`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const body = (await res.json()) as TJson & { slug: string; url: string };
    expect(body).toMatchObject({ success: true, url: `${app.url}/${body.slug}` });

    const poll = async () => callJson(app.url, 'GET', `/api/direct-upload/status/${body.slug}`);
    expect((await poll()).body).toEqual({ success: true, project: { optimizationProgress: 0, optimizationComplete: false } });
    const build = await app.deps.db.selectFrom('builds').select('id').executeTakeFirstOrThrow();
    await app.deps.db.updateTable('builds').set({ progress: 42, stage: 'Deriving' }).where('id', '=', build.id).execute();
    expect((await poll()).body).toEqual({ success: true, project: { optimizationProgress: 42, optimizationComplete: false } });

    await app.startWorker();
    await app.deps.queue.whenIdle();
    const done = await poll();
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(done.body).toEqual({ success: true, project: { optimizationProgress: 100, optimizationComplete: true } });
    expect((await callJson(app.url, 'GET', '/api/direct-upload/status/nonexistent1')).status).toBe(404);
    expect((await callJson(app.url, 'GET', '/api/direct-upload/status/..')).status).toBe(404);
  });
});
