import { describe, expect, it } from 'vitest';
import { encodeRfc3986, presignS3Url } from './s3-presign.ts';

describe('presignS3Url', () => {
  it('reproduces the worked example of the AWS SigV4 query-string reference', () => {
    const url = presignS3Url({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      region: 'us-east-1',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      now: Date.UTC(2013, 4, 24),
      expiresInSeconds: 86400,
    });
    expect(url.toString()).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  it('signs an UploadPart with a session token, a port and characters that need encoding', () => {
    // Expected signature computed once with the AWS SDK's own signer (@smithy/signature-v4, UNSIGNED-PAYLOAD).
    const url = presignS3Url({
      method: 'PUT',
      url: new URL(`http://127.0.0.1:9000/bucket/uploads/ab-C_d/f%20%20x~?partNumber=3&uploadId=${encodeURIComponent('a/b+c=')}`),
      region: 'eu-west-1',
      accessKeyId: 'AK',
      secretAccessKey: 'SK/x+y',
      sessionToken: 'tok/en=',
      now: Date.UTC(2026, 10, 23, 10, 11, 12),
      expiresInSeconds: 3600,
    });
    expect(url.searchParams.get('X-Amz-Signature')).toBe('5c757359f58e4e4abccd6ef4f7b04425ae0493989a2419292a1fbd8aff036dc6');
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe('tok/en=');
    expect(url.searchParams.get('partNumber')).toBe('3');
  });

  it('signs the headers a request must carry: its exact length, and its checksum when given', () => {
    // Expected signatures computed once with the AWS SDK's own signer (@smithy/signature-v4: content-length
    // signable, x-amz-checksum-sha256 unhoistable, UNSIGNED-PAYLOAD).
    const base = { method: 'PUT' as const, region: 'eu-west-1', accessKeyId: 'AK', secretAccessKey: 'SK/x+y', now: Date.UTC(2026, 10, 23, 10, 11, 12), expiresInSeconds: 300 };
    const sized = presignS3Url({
      ...base,
      url: new URL(`http://127.0.0.1:9000/bucket/uploads/ab-C_d/f%20%20x~?partNumber=3&uploadId=${encodeURIComponent('a/b+c=')}`),
      sessionToken: 'tok/en=',
      signedHeaders: { 'Content-Length': '5242880' },
    });
    expect(sized.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host');
    expect(sized.searchParams.get('X-Amz-Signature')).toBe('5a2ffea95c37f0bd0a0456401456d836a1fabeba7f5cfb6a658a47184b02d8bb');

    const summed = presignS3Url({
      ...base,
      url: new URL('https://bucket.s3.eu-west-1.amazonaws.com/uploads/a.bin?partNumber=1&uploadId=xyz'),
      signedHeaders: { 'content-length': '5', 'x-amz-checksum-sha256': 'LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=' },
    });
    expect(summed.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host;x-amz-checksum-sha256');
    expect(summed.searchParams.get('X-Amz-Signature')).toBe('0d42143baefdfebd543867fb704b09e9245006530321958aeafd408b9a0fc615');
  });

  it('refuses lifetimes S3 would refuse', () => {
    const base = { method: 'PUT' as const, url: new URL('https://b.s3.amazonaws.com/k'), region: 'us-east-1', accessKeyId: 'a', secretAccessKey: 'b', now: 0 };
    expect(() => presignS3Url({ ...base, expiresInSeconds: 0 })).toThrow(RangeError);
    expect(() => presignS3Url({ ...base, expiresInSeconds: 604_801 })).toThrow(RangeError);
  });

  it('encodes as RFC 3986 wants', () => {
    expect(encodeRfc3986("a b/c!'()*~")).toBe('a%20b%2Fc%21%27%28%29%2A~');
  });
});
