/**
 * Anonymous publishing has limits: publishes (all four protocols) and previews per address and per
 * anonymous creator, bytes per day by declared size, open upload sessions per address, a free-space
 * high-water mark (507 before the disk fills), and creator sessions issued only by a publish that worked.
 * A refusal sent before the body is read reaches a client that is still sending it.
 */
import { statfs } from 'node:fs/promises';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { UPLOADS_PREFIX } from '@dropsite/shared';
import { loadConfig, type TConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { callJson, type TReply } from '@dropsite/testkit/control-api/upload-session-client';
import { connectRaw, encodeForm, requestHead, type TRawClient } from '@dropsite/testkit/control-api/raw-http-client';
import { TOO_MANY_PUBLISHES_MESSAGE } from './publish-limits.ts';

const DEFAULTS = loadConfig({ TRUST_PROXY: '1' });
const GiB = 1024 ** 3;
const ONE_FILE = [{ name: 'note.txt', type: 'text/plain', bytes: new TextEncoder().encode('hello from the limits test\n') }];

let app: TTestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The shipped defaults, with the free-space reserve off unless a test sets it (the test machine's disk is not under test). */
async function start(overrides: Partial<TConfig['publishLimits']> = {}): Promise<TTestApp> {
  app = await startTestApp({
    clock: createFakeClock(),
    startWorker: false,
    config: { trustProxy: DEFAULTS.trustProxy, publishLimits: { ...DEFAULTS.publishLimits, minFreeBytes: 0, minFreePercent: 0, ...overrides } },
  });
  return app;
}

function from(address: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'x-forwarded-for': address, ...extra };
}

async function upload(a: TTestApp, headers: Record<string, string>, fields: Record<string, string> = {}, path = '/api/upload'): Promise<TReply> {
  const res = await fetch(`${a.url}${path}`, { method: 'POST', body: buildUploadForm(ONE_FILE, fields), headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
}

function chunkedInit(a: TTestApp, headers: Record<string, string>, size = 10): Promise<TReply> {
  return callJson(a.url, 'POST', '/api/chunked-upload/init', { title: 'Chunked', files: [{ name: 'big.bin', size, type: 'application/octet-stream' }] }, headers);
}

function directInit(a: TTestApp, headers: Record<string, string>, size = 10): Promise<TReply> {
  return callJson(a.url, 'POST', '/api/direct-upload/init', { files: [{ name: 'big.bin', size, type: 'application/octet-stream' }], metadata: { title: 'Direct' } }, headers);
}

async function count(a: TTestApp, table: 'projects' | 'anonymous_sessions' | 'upload_sessions'): Promise<number> {
  const row = await a.deps.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function storedKeys(a: TTestApp): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of a.deps.storage.list(UPLOADS_PREFIX)) keys.push(o.key);
  return keys;
}

function cookieOf(reply: TReply): string {
  return reply.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .join('; ');
}

describe('publish limits (shipped defaults)', () => {
  it('documents its defaults: 10 publishes an hour, 5 GiB a day, 5 open uploads, 60 previews an hour, 1 GiB or 5% kept free', () => {
    expect(loadConfig({}).publishLimits).toEqual({
      perHour: 10,
      bytesPerDay: 5 * GiB,
      openSessionsPerAddress: 5,
      previewsPerHour: 60,
      minFreeBytes: GiB,
      minFreePercent: 5,
      storageByteBudget: undefined,
    });
  });

  it('accepts 10 of 25 quick publishes from one address; the rest answer 429 with Retry-After and keep nothing', async () => {
    const a = await start();
    const replies: TReply[] = [];
    for (let i = 0; i < 25; i++) replies.push(await upload(a, from('203.0.113.10')));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = replies.filter((r) => r.status !== 201);
    expect(refused.every((r) => r.status === 429 && r.body.code === 'rate_limited')).toBe(true);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(String(refused[0]!.body.error)).toMatch(/published|wait/i);
    expect(await count(a, 'projects')).toBe(10);
    expect((await storedKeys(a)).length).toBe(10);
    // Another address publishes as usual.
    expect((await upload(a, from('203.0.113.11'))).status).toBe(201);
  });

  it('counts every protocol together: regular, direct, chunked init and direct-chunked init', async () => {
    const a = await start();
    const address = '203.0.113.20';
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await upload(a, from(address))).status);
    for (let i = 0; i < 3; i++) statuses.push((await upload(a, from(address), {}, '/api/direct-upload')).status);
    for (let i = 0; i < 2; i++) statuses.push((await chunkedInit(a, from(address))).status);
    for (let i = 0; i < 2; i++) statuses.push((await directInit(a, from(address))).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 201, 201]);
    expect((await upload(a, from(address))).status).toBe(429);
    expect((await upload(a, from(address), {}, '/api/direct-upload')).status).toBe(429);
    const chunked = await chunkedInit(a, from(address));
    expect(chunked.status).toBe(429);
    expect(chunked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await directInit(a, from(address))).status).toBe(429);
  });

  it('limits an anonymous creator across addresses too', async () => {
    const a = await start();
    const first = await upload(a, from('198.51.100.1'));
    expect(first.status).toBe(201);
    const cookie = cookieOf(first);
    expect(cookie).toMatch(/dropsite_anon=/);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await upload(a, from(`198.51.100.${i + 2}`, { cookie }))).status);
    expect(statuses.slice(0, 9)).toEqual(Array(9).fill(201));
    expect(statuses[9]).toBe(429);
  });

  it('refuses an init past the daily byte allowance by its declared size, before any byte is sent', async () => {
    const a = await start();
    const address = '203.0.113.30';
    expect((await chunkedInit(a, from(address), 2 * GiB - 1)).status).toBe(201);
    expect((await directInit(a, from(address), 2 * GiB - 1)).status).toBe(201);
    const third = await chunkedInit(a, from(address), 2 * GiB - 1);
    expect(third.status).toBe(429);
    expect(String(third.body.error)).toMatch(/day/i);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(3600);
    // A small one still fits in what is left.
    expect((await chunkedInit(a, from(address), 100 * 1024 ** 2)).status).toBe(201);
    expect(await count(a, 'upload_sessions')).toBe(3);
  });

  it('caps the open upload sessions of one address; finishing or cancelling one makes room', async () => {
    const a = await start();
    const address = '203.0.113.40';
    const opened: TReply[] = [];
    for (let i = 0; i < 5; i++) opened.push(await chunkedInit(a, from(address)));
    expect(opened.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const sixth = await directInit(a, from(address));
    expect(sixth.status).toBe(429);
    expect(String(sixth.body.error)).toMatch(/unfinished upload/i);
    expect((await chunkedInit(a, from('203.0.113.41'))).status).toBe(201);
    const cancelled = await callJson(a.url, 'DELETE', `/api/upload-session/${String(opened[0]!.body.sessionId)}`);
    expect(cancelled.status).toBe(204);
    expect((await chunkedInit(a, from(address))).status).toBe(201);
  });

  it('holds the open-session cap against parallel inits', async () => {
    const a = await start();
    const replies = await Promise.all(Array.from({ length: 9 }, (_, i) => (i % 2 ? directInit : chunkedInit)(a, from('203.0.113.45'))));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(5);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(4);
    expect(await count(a, 'upload_sessions')).toBe(5);
  });

  it('limits previews per address (60 an hour)', async () => {
    const a = await start();
    const draft = { title: 'Draft', files: [{ clientId: 'f1', name: 'a.jpg', type: 'image/jpeg', size: 10 }] };
    const preview = async (address: string) => {
      const res = await fetch(`${a.url}/api/preview`, { method: 'POST', headers: from(address, { 'content-type': 'application/json' }), body: JSON.stringify(draft) });
      await res.arrayBuffer();
      return res.status;
    };
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push(await preview('203.0.113.50'));
    expect(statuses.slice(0, 60)).not.toContain(429);
    expect(statuses.slice(60)).toEqual([429, 429]);
    expect(await preview('203.0.113.51')).not.toBe(429);
  });
});

describe('free-space high-water mark', () => {
  it('answers 507 before accepting an upload or an init when the disk would fall below the reserve; nothing is kept', async () => {
    const a = await start({ minFreeBytes: Number.MAX_SAFE_INTEGER });
    const regular = await upload(a, from('203.0.113.60'));
    expect(regular.status).toBe(507);
    expect(regular.body.code).toBe('insufficient_storage');
    expect(String(regular.body.error)).toMatch(/storage space/i);
    expect((await chunkedInit(a, from('203.0.113.60'))).status).toBe(507);
    expect((await directInit(a, from('203.0.113.60'))).status).toBe(507);
    expect(await count(a, 'projects')).toBe(0);
    expect(await count(a, 'upload_sessions')).toBe(0);
    expect(await storedKeys(a)).toEqual([]);
  });

  it('counts what open upload sessions announced as already taken on the disk', async () => {
    const probe = await statfs(os.tmpdir());
    // About 1 GiB above the reserve: one announced 600 MiB fits, a second does not while the first is open.
    const a = await start({ minFreeBytes: probe.bavail * probe.bsize - GiB });
    expect((await chunkedInit(a, from('203.0.113.62'), 600 * 1024 ** 2)).status).toBe(201);
    expect((await chunkedInit(a, from('203.0.113.63'), 600 * 1024 ** 2)).status).toBe(507);
  });

  it('keeps a storage byte budget counted from stored and announced sizes (for buckets, which cannot say how full they are)', async () => {
    const a = await start({ storageByteBudget: 1000 });
    expect((await chunkedInit(a, from('203.0.113.61'), 600)).status).toBe(201);
    const over = await chunkedInit(a, from('203.0.113.61'), 600);
    expect(over.status).toBe(507);
    expect((await chunkedInit(a, from('203.0.113.61'), 300)).status).toBe(201);
  });
});

describe('anonymous creator sessions', () => {
  it('are issued only by a publish that worked: 20 refused uploads make no session row and set no cookie', async () => {
    const a = await start();
    for (let i = 0; i < 10; i++) {
      const blank = await upload(a, from(`192.0.2.${i + 1}`), { title: '   ' });
      expect(blank.status).toBe(400);
      expect(cookieOf(blank)).not.toMatch(/dropsite_anon=/);
    }
    for (let i = 0; i < 5; i++) expect((await chunkedInit(a, from(`192.0.2.${i + 20}`), 3 * GiB)).status).toBe(413);
    for (let i = 0; i < 5; i++) expect((await directInit(a, from(`192.0.2.${i + 30}`), -1)).status).toBe(400);
    expect(await count(a, 'anonymous_sessions')).toBe(0);

    const published = await upload(a, from('192.0.2.99'));
    expect(published.status).toBe(201);
    const cookie = cookieOf(published);
    expect(cookie).toMatch(/dropsite_anon=/);
    expect(await count(a, 'anonymous_sessions')).toBe(1);
    // The creator's next publish keeps the same session.
    expect((await chunkedInit(a, from('192.0.2.99', { cookie }))).status).toBe(201);
    expect(await count(a, 'anonymous_sessions')).toBe(1);
    const mine = await callJson(a.url, 'GET', '/api/creators/anonymous/session', undefined, { cookie });
    expect(mine.status).toBe(200);
    const sites = await callJson(a.url, 'GET', `/api/projects/anonymous/${String(mine.body.sessionId)}`, undefined, { cookie });
    expect(sites.body.projects).toHaveLength(1);
  });

  it('an init that opened a session issues the creator session its later complete publishes under', async () => {
    const a = await start();
    const init = await chunkedInit(a, from('192.0.2.150'), 0);
    expect(init.status).toBe(201);
    const cookie = cookieOf(init);
    expect(cookie).toMatch(/dropsite_anon=/);
    expect(await count(a, 'anonymous_sessions')).toBe(1);
  });
});

describe('a refused publish, answered while the client is still sending', () => {
  const clients: TRawClient[] = [];
  afterEach(() => {
    for (const c of clients.splice(0)) c.socket.destroy();
  });
  const connect = async (a: TTestApp) => {
    const client = await connectRaw(Number(new URL(a.url).port));
    clients.push(client);
    return client;
  };

  it('reads the 429 and can finish sending: the body is drained and the connection answers the next request', async () => {
    const a = await start({ perHour: 1 });
    const address = '192.0.2.200';
    expect((await upload(a, from(address))).status).toBe(201);
    const { body, type } = await encodeForm(buildUploadForm([{ name: 'big.bin', type: 'application/octet-stream', bytes: new Uint8Array(1024 * 1024).fill(3) }]));
    const client = await connect(a);
    client.socket.write(requestHead('POST', '/api/upload', { 'Content-Type': type, 'Content-Length': body.length, 'X-Forwarded-For': address }));
    client.socket.write(body.subarray(0, 64 * 1024));
    // The refusal comes before the body is read; the client has not finished sending.
    const refusal = await client.answer();
    expect(refusal.status).toBe(429);
    expect(refusal.head).toMatch(/^retry-after: \d+$/im);
    expect(JSON.parse(refusal.body)).toMatchObject({ success: false, code: 'rate_limited', error: TOO_MANY_PUBLISHES_MESSAGE });
    // The rest of the body is taken (not reset), and the same connection serves the next request.
    client.socket.write(body.subarray(64 * 1024));
    client.socket.write(requestHead('GET', '/api/health'));
    const next = await client.answer();
    expect(next.status).toBe(200);
    expect(client.isClosed()).toBe(false);
    expect(await count(a, 'projects')).toBe(1);
  });

  it('reads the 413 of a body larger than allowed, then is cut after a bounded part of it', async () => {
    const a = await start();
    const client = await connect(a);
    client.socket.write(requestHead('POST', '/api/upload', { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': 6 * GiB, 'X-Forwarded-For': '192.0.2.201' }));
    client.socket.write(Buffer.alloc(64 * 1024, 1));
    const refusal = await client.answer();
    expect(refusal.status).toBe(413);
    expect(JSON.parse(refusal.body)).toMatchObject({ success: false, code: expect.stringMatching(/too_large$/) });
    // Sending on: the server reads a few MiB at most, then closes the connection.
    const piece = Buffer.alloc(1024 * 1024, 1);
    let written = 0;
    while (!client.isClosed() && written < 256 * 1024 ** 2) {
      if (!client.socket.write(piece)) await Promise.race([new Promise((resolve) => client.socket.once('drain', resolve)), client.closed]);
      written += piece.length;
    }
    await client.closed;
    // A few MiB read, plus what the sockets' buffers held: far from the 256 MiB the client would send.
    expect(written).toBeLessThan(64 * 1024 ** 2);
    expect(await count(a, 'projects')).toBe(0);
    expect(await storedKeys(a)).toEqual([]);
  });
});
