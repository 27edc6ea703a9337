/**
 * The part URLs S3 storage hands to browsers, as the AWS SDK's presigner signs them: the part's
 * length always, and its CRC-32 (or SHA-256) when the upload checks one, are signed headers the request must
 * carry (the bucket refuses another length or other bytes; part-urls.security.test.ts sends them).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createS3Storage } from './s3-storage.ts';
import { InvalidPartError, type TMultipartUpload } from './storage.ts';

const NOW = Date.UTC(2026, 10, 23, 10, 11, 12);
const SHA256_HEX = '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824';
const credentials = { region: 'eu-west-1', bucket: 'media', accessKeyId: 'AK', secretAccessKey: 'SK/x+y' };

describe('S3 part upload URLs', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('signs the host and the exact length of the part, path style on a custom endpoint', async () => {
    const storage = createS3Storage({ ...credentials, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
    const upload: TMultipartUpload = { key: 'uploads/ab C/f~.bin', uploadId: 'a/b+c=', partSize: 5 * 1024 * 1024 };
    const request = await storage.createPartUploadUrl(upload, 3, { expiresInSeconds: 300, size: 5 * 1024 * 1024 });
    expect(request).toMatchObject({ method: 'PUT', headers: {}, expiresAt: NOW + 300_000 });
    const url = new URL(request!.url);
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:9000/media/uploads/ab%20C/f~.bin');
    expect(url.searchParams.get('partNumber')).toBe('3');
    expect(url.searchParams.get('uploadId')).toBe('a/b+c=');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host');
    expect(url.searchParams.get('X-Amz-Date')).toBe('20261123T101112Z');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-Credential')).toBe('AK/20261123/eu-west-1/s3/aws4_request');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs the checksum as a header the browser sends, on a virtual-hosted AWS URL', async () => {
    const storage = createS3Storage(credentials);
    const upload: TMultipartUpload = { key: 'uploads/a.bin', uploadId: 'xyz', partSize: 1024, checksum: 'sha256' };
    const request = await storage.createPartUploadUrl(upload, 1, { expiresInSeconds: 60, size: 5, sha256: SHA256_HEX });
    const checksum = Buffer.from(SHA256_HEX, 'hex').toString('base64');
    expect(request!.headers).toEqual({ 'x-amz-checksum-sha256': checksum });
    const url = new URL(request!.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://media.s3.eu-west-1.amazonaws.com/uploads/a.bin');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host;x-amz-checksum-sha256');
    expect(url.searchParams.has('x-amz-checksum-sha256')).toBe(false);
  });

  it('refuses a part URL without the SHA-256 an upload that checks one needs', async () => {
    const storage = createS3Storage(credentials);
    const upload: TMultipartUpload = { key: 'uploads/a.bin', uploadId: 'xyz', partSize: 1024, checksum: 'sha256' };
    await expect(storage.createPartUploadUrl(upload, 1, { expiresInSeconds: 60, size: 5 })).rejects.toThrow(InvalidPartError);
  });
  it('signs a CRC-32 (base64, as S3 takes it) as a header the browser sends', async () => {
    const storage = createS3Storage(credentials);
    const upload: TMultipartUpload = { key: 'uploads/a.bin', uploadId: 'xyz', partSize: 1024, checksum: 'crc32' };
    const request = await storage.createPartUploadUrl(upload, 1, { expiresInSeconds: 60, size: 9, crc32: 'y/Q5Jg==' });
    expect(request!.headers).toEqual({ 'x-amz-checksum-crc32': 'y/Q5Jg==' });
    const url = new URL(request!.url);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host;x-amz-checksum-crc32');
    expect(url.searchParams.has('x-amz-checksum-crc32')).toBe(false);
  });

  it('refuses a part URL without the CRC-32 an upload that checks one needs, or with one that is not 4 bytes', async () => {
    const storage = createS3Storage(credentials);
    const upload: TMultipartUpload = { key: 'uploads/a.bin', uploadId: 'xyz', partSize: 1024, checksum: 'crc32' };
    await expect(storage.createPartUploadUrl(upload, 1, { expiresInSeconds: 60, size: 5 })).rejects.toThrow(InvalidPartError);
    await expect(storage.createPartUploadUrl(upload, 1, { expiresInSeconds: 60, size: 5, sha256: SHA256_HEX })).rejects.toThrow(InvalidPartError);
    await expect(storage.createPartUploadUrl(upload, 1, { expiresInSeconds: 60, size: 5, crc32: 'cbf43926' })).rejects.toThrow(InvalidPartError);
  });
});
