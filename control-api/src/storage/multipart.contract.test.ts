/** The multipart part of the storage contract, for every driver: disk on a temp directory, S3 against s3rver. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage, type TStorageConfig } from './create-storage.ts';
import { InvalidPartError, MIN_PART_SIZE, MultipartUploadNotFoundError, type Storage, type TMultipartUpload } from './storage.ts';
import { readAll, sha256, sha256OfStream } from '@dropsite/testkit/bytes';
import { startS3rver, type TS3rver } from '@dropsite/testkit/control-api/s3rver';

const PART = MIN_PART_SIZE;

for (const driver of ['disk', 's3'] as const) {
  describe(`Storage multipart contract (${driver})`, () => {
    let storage: Storage;
    let workDir: string;
    let server: TS3rver | undefined;

    beforeAll(async () => {
      workDir = await mkdtemp(join(tmpdir(), `dropsite-multipart-${driver}-`));
      let config: TStorageConfig = { driver: 'disk', root: join(workDir, 'objects') };
      if (driver === 's3') {
        const started = await startS3rver(workDir);
        server = started.server;
        config = {
          driver: 's3',
          endpoint: started.endpoint,
          region: 'us-east-1',
          bucket: 'dropsite-multipart',
          accessKeyId: 'S3RVER',
          secretAccessKey: 'S3RVER',
          forcePathStyle: true,
        };
      }
      storage = await createStorage(config);
    });

    afterAll(async () => {
      await storage?.close();
      await server?.close();
      await rm(workDir, { recursive: true, force: true });
    });

    it('assembles parts put out of order, from bytes and streams, and shows nothing until completed', async () => {
      const parts = [randomBytes(PART), randomBytes(PART), randomBytes(1234)];
      const upload = await storage.createMultipartUpload('mp/assembled.bin', { partSize: PART, contentType: 'application/octet-stream' });
      const third = await storage.putPart(upload, 3, new Uint8Array(parts[2]!), 1234);
      const first = await storage.putPart(upload, 1, Readable.from(splitInto(parts[0]!, 7)), PART);
      const second = await storage.putPart(upload, 2, Readable.from([parts[1]!]), PART);
      expect(await storage.head('mp/assembled.bin')).toBeNull();

      const listed = await storage.listParts(upload);
      expect(listed.map((p) => [p.partNumber, p.size])).toEqual([
        [1, PART],
        [2, PART],
        [3, 1234],
      ]);
      expect(listed.map((p) => p.etag)).toEqual([first.etag, second.etag, third.etag]);
      expect(await uploadIdsUnder(storage, 'mp/')).toContain(upload.uploadId);

      const info = await storage.completeMultipartUpload(upload, [first, second, third]);
      expect(info.size).toBe(2 * PART + 1234);
      const got = await storage.get('mp/assembled.bin');
      expect(got.size).toBe(2 * PART + 1234);
      expect(await sha256OfStream(got.body)).toBe(sha256(Buffer.concat(parts)));
      expect(await uploadIdsUnder(storage, 'mp/')).not.toContain(upload.uploadId);
      await expect(storage.listParts(upload)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
    });

    it('refuses a part body longer or shorter than declared and does not list it', async () => {
      const upload = await storage.createMultipartUpload('mp/lengths.bin', { partSize: PART });
      await expect(storage.putPart(upload, 1, Readable.from([randomBytes(1000)]), 999)).rejects.toBeInstanceOf(InvalidPartError);
      await expect(storage.putPart(upload, 1, Readable.from([randomBytes(10)]), 999)).rejects.toBeInstanceOf(InvalidPartError);
      await expect(storage.putPart(upload, 2, new Uint8Array(5), 6)).rejects.toBeInstanceOf(InvalidPartError);
      expect(await storage.listParts(upload)).toEqual([]);
      await storage.abortMultipartUpload(upload);
    });

    it('refuses bad part numbers and sizes before storing anything', async () => {
      const upload = await storage.createMultipartUpload('mp/numbers.bin', { partSize: 1024 });
      for (const n of [0, -1, 1.5, 10_001, Number.NaN]) {
        await expect(storage.putPart(upload, n, new Uint8Array(1), 1), String(n)).rejects.toBeInstanceOf(InvalidPartError);
      }
      await expect(storage.putPart(upload, 1, new Uint8Array(1025), 1025)).rejects.toBeInstanceOf(InvalidPartError);
      await expect(storage.completeMultipartUpload(upload, [])).rejects.toBeInstanceOf(InvalidPartError);
      await expect(storage.completeMultipartUpload(upload, [{ partNumber: 2, etag: '"x"' }])).rejects.toBeInstanceOf(InvalidPartError);
      await storage.abortMultipartUpload(upload);
    });

    it('replaces a re-put part; completing needs the newest etag', async () => {
      const upload = await storage.createMultipartUpload('mp/replaced.bin', { partSize: PART });
      const old = await storage.putPart(upload, 1, new Uint8Array(randomBytes(100)), 100);
      const fresh = randomBytes(60);
      const replaced = await storage.putPart(upload, 1, new Uint8Array(fresh), 60);
      expect((await storage.listParts(upload)).map((p) => p.size)).toEqual([60]);
      if (driver === 'disk') {
        // s3rver, like S3 for identical bytes, may reuse an etag; disk etags are per write.
        expect(replaced.etag).not.toBe(old.etag);
        await expect(storage.completeMultipartUpload(upload, [old])).rejects.toBeInstanceOf(InvalidPartError);
      }
      await storage.completeMultipartUpload(upload, [replaced]);
      expect(await readAll((await storage.get('mp/replaced.bin')).body)).toEqual(fresh);
    });

    it('aborts: parts gone, later puts and completes fail, nothing visible; aborting twice is fine', async () => {
      const upload = await storage.createMultipartUpload('mp/aborted.bin', { partSize: PART });
      const part = await storage.putPart(upload, 1, new Uint8Array(10), 10);
      await storage.abortMultipartUpload(upload);
      await storage.abortMultipartUpload(upload);
      await expect(storage.listParts(upload)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
      await expect(storage.putPart(upload, 2, new Uint8Array(10), 10)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
      await expect(storage.completeMultipartUpload(upload, [part])).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
      expect(await storage.head('mp/aborted.bin')).toBeNull();
      expect(await uploadIdsUnder(storage, 'mp/aborted')).toEqual([]);
    });

    it('an upload id is good only for its own key', async () => {
      const upload = await storage.createMultipartUpload('mp/own-a', { partSize: PART });
      const other: TMultipartUpload = { ...upload, key: 'mp/own-b' };
      await expect(storage.putPart(other, 1, new Uint8Array(1), 1)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
      await storage.abortMultipartUpload(upload);
    });

    it('lists pending uploads by key prefix', async () => {
      const a = await storage.createMultipartUpload('mp-list/a/1', { partSize: PART });
      const b = await storage.createMultipartUpload('mp-list/b/1', { partSize: PART });
      expect(await uploadIdsUnder(storage, 'mp-list/a/')).toEqual([a.uploadId]);
      expect((await uploadIdsUnder(storage, 'mp-list/')).sort()).toEqual([a.uploadId, b.uploadId].sort());
      const listed = [];
      for await (const u of storage.listMultipartUploads('mp-list/b/')) listed.push(u);
      expect(listed[0]).toMatchObject({ key: 'mp-list/b/1', uploadId: b.uploadId });
      expect(listed[0]!.initiatedAt).toBeGreaterThan(Date.now() - 60_000);
      await storage.abortMultipartUpload(a);
      await storage.abortMultipartUpload(b);
    });

    it('refuses unsafe keys', async () => {
      for (const key of ['../x', '/abs', 'a//b', 'a\0b']) {
        await expect(storage.createMultipartUpload(key, { partSize: PART }), key).rejects.toThrow(/Unsafe storage key/);
      }
    });

    if (driver === 'disk') {
      it('has no direct part URLs and keeps its multipart folder out of listings', async () => {
        const upload = await storage.createMultipartUpload('mp/hidden', { partSize: PART });
        expect(await storage.createPartUploadUrl(upload, 1, { expiresInSeconds: 60, size: 1 })).toBeNull();
        const keys = [];
        for await (const o of storage.list('')) keys.push(o.key);
        expect(keys.some((k) => k.startsWith('.multipart'))).toBe(false);
        await expect(storage.putPart({ ...upload, uploadId: '../../etc' }, 1, new Uint8Array(1), 1)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
        await storage.abortMultipartUpload(upload);
        expect(await readdir(join(workDir, 'objects', '.multipart'))).toEqual([]);
      });
    }

    if (driver === 's3') {
      it('presigns part uploads a client can PUT straight to the bucket, reading the ETag back', async () => {
        const upload = await storage.createMultipartUpload('mp/presigned.bin', { partSize: PART });
        const bytes = [randomBytes(PART), randomBytes(777)];
        const etags = [];
        for (const [i, body] of bytes.entries()) {
          const signed = await storage.createPartUploadUrl(upload, i + 1, { expiresInSeconds: 600, size: body.length });
          expect(signed).not.toBeNull();
          expect(signed!.method).toBe('PUT');
          expect(signed!.url).toContain('X-Amz-Signature=');
          const res = await fetch(signed!.url, { method: 'PUT', body: new Uint8Array(body), headers: signed!.headers });
          expect(res.status).toBe(200);
          etags.push(res.headers.get('etag'));
        }
        const listed = await storage.listParts(upload);
        expect(listed.map((p) => p.etag)).toEqual(etags);
        await storage.completeMultipartUpload(upload, listed);
        expect(await sha256OfStream((await storage.get('mp/presigned.bin')).body)).toBe(sha256(Buffer.concat(bytes)));
      });

      it('refuses a presigned PUT whose body is larger or smaller than the signed size, storing nothing', async () => {
        const upload = await storage.createMultipartUpload('mp/presigned-size.bin', { partSize: PART });
        const signed = await storage.createPartUploadUrl(upload, 1, { expiresInSeconds: 60, size: 1000 });
        for (const size of [1001, PART, 999]) {
          const res = await fetch(signed!.url, { method: 'PUT', body: new Uint8Array(size), headers: signed!.headers });
          expect(res.status, String(size)).toBe(403);
        }
        expect(await storage.listParts(upload)).toEqual([]);
        expect((await fetch(signed!.url, { method: 'PUT', body: new Uint8Array(1000), headers: signed!.headers })).status).toBe(200);
        await storage.abortMultipartUpload(upload);
      });
    }
  });
}

async function uploadIdsUnder(storage: Storage, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const u of storage.listMultipartUploads(prefix)) ids.push(u.uploadId);
  return ids;
}

function splitInto(bytes: Buffer, pieces: number): Buffer[] {
  const size = Math.ceil(bytes.length / pieces);
  return Array.from({ length: pieces }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}
