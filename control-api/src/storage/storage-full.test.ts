/**
 * An S3-compatible store out of space (MinIO answers 507 XMinioStorageFull when its drives are full):
 * every write fails with StorageFullError, which the API answers 507 Insufficient Storage with a
 * message saying so, as it answers a full disk (ENOSPC), instead of a 500.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAppError } from '../http/error-middleware.ts';
import { createS3Storage } from './s3-storage.ts';
import { StorageFullError, type Storage } from './storage.ts';

const FULL =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>XMinioStorageFull</Code><Message>Storage backend has reached its minimum free drive threshold. Please delete a few objects to proceed.</Message></Error>';

describe('an S3 store out of space', () => {
  let server: Server;
  let storage: Storage;
  const writes: string[] = [];

  beforeAll(async () => {
    // A store whose drives are full: it reads what it is sent and refuses to keep it, as MinIO does.
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        writes.push(`${req.method} ${req.url}`);
        res.writeHead(507, { 'content-type': 'application/xml' }).end(FULL);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    storage = createS3Storage({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket: 'dropsite',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a put, a streamed put and the start of a multipart upload fail with StorageFullError, once each (not retried)', async () => {
    for (const write of [
      () => storage.put('uploads/p1/f1', new Uint8Array(1024)),
      () => storage.put('uploads/p1/f2', Readable.from([Buffer.alloc(64 * 1024)])),
      () => storage.createMultipartUpload('uploads/p1/f3', { partSize: 5 * 1024 * 1024 }),
    ]) {
      const before = writes.length;
      const failure = await write().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(StorageFullError);
      expect(writes.length - before).toBe(1);
    }
  });

  it('the API answers the upload 507 with a message that the storage is full', async () => {
    const failure = await storage.put('uploads/p1/f4', new Uint8Array(10)).catch((error: unknown) => error);
    const answer = toAppError(failure);
    expect(answer.status).toBe(507);
    expect(answer.code).toBe('insufficient_storage');
    expect(answer.message).toBe('Storage is full. Please try again later.');
  });
});
