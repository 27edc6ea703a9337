/** A body the server cannot decode is the client's fault: 415 or 400 with the JSON error shape, never 500. */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { rawRequest } from '@dropsite/testkit/control-api/raw-request';

const PATHS = ['/api/analytics/events', '/api/chunked-upload/init', '/api/preview', '/api/sites/some-site/unlock'];

describe('request bodies in an encoding the server cannot read', () => {
  let app: TTestApp;
  beforeAll(async () => {
    app = await startTestApp({ startWorker: false });
  });
  afterAll(() => app.close());

  it.each(PATHS)('%s: an unknown Content-Encoding answers 415', async (path) => {
    const contentType = path.endsWith('/unlock') ? 'application/x-www-form-urlencoded' : 'application/json';
    const res = await rawRequest(app.url, { path, headers: { 'content-type': contentType, 'content-encoding': 'bogus' }, body: '{}' });
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body)).toEqual({ success: false, error: 'Unsupported content encoding', code: 'unsupported_media_type' });
  });

  it.each(PATHS)('%s: a corrupt or truncated gzip body answers 400', async (path) => {
    const contentType = path.endsWith('/unlock') ? 'application/x-www-form-urlencoded' : 'application/json';
    const corrupt = await rawRequest(app.url, { path, headers: { 'content-type': contentType, 'content-encoding': 'gzip' }, body: Buffer.from('not gzip at all') });
    expect(corrupt.status).toBe(400);
    expect(JSON.parse(corrupt.body)).toMatchObject({ success: false, code: 'bad_request' });
    const truncated = gzipSync(Buffer.from(JSON.stringify({ a: 'b'.repeat(1000) }))).subarray(0, 20);
    const cut = await rawRequest(app.url, { path, headers: { 'content-type': contentType, 'content-encoding': 'gzip' }, body: truncated });
    expect(cut.status).toBe(400);
  });

  it('a well-formed gzip JSON body is still read', async () => {
    const res = await rawRequest(app.url, {
      path: '/api/analytics/events',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.from(JSON.stringify({}))),
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).code).toBe('validation_failed');
  });
});
