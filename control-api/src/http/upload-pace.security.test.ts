/**
 * Upload bodies that trickle in: an upload has no total deadline, but one whose bytes arrive slower
 * than UPLOAD_MIN_BYTES_PER_SECOND on average over a minute is cut, while a slow but honest one
 * finishes (an owner's file replacement included, no longer cut by the ordinary request deadline);
 * chunk uploads in flight are capped per upload session and per address (429 with Retry-After); and
 * one address cannot hold more than HTTP_MAX_CONNECTIONS_PER_ADDRESS connections while others still
 * connect. Time is the app's fake clock, moved by the test.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE } from '@dropsite/shared';
import { loadConfig, type TConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, makeJpeg } from '@dropsite/testkit/control-api/fixtures';
import { createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { FORM, callJson, type TJson } from '@dropsite/testkit/control-api/upload-session-client';
import { connectRaw, encodeForm, requestHead as head, type TRawAnswer, type TRawClient } from '@dropsite/testkit/control-api/raw-http-client';
import { createHttpServer, createUploadPace, isUploadRequest } from './slow-clients.ts';

const HTTP_DEFAULTS = loadConfig({}).http;
const SECOND = 1_000;

let app: TTestApp | undefined;
const servers: Server[] = [];
const clients: TRawClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.socket.destroy();
  await app?.close();
  app = undefined;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A raw connection closed after the test. */
async function rawClient(port: number, localAddress?: string): Promise<TRawClient> {
  const client = await connectRaw(port, localAddress);
  clients.push(client);
  return client;
}

describe('the pace of an upload body', () => {
  const limits = { idleMs: 60 * SECOND, minBytesPerSecond: 8 * 1024, windowMs: 60 * SECOND };

  it('cuts a body trickling a byte a second once a whole minute averages below the minimum, not before', () => {
    const pace = createUploadPace(limits, 0);
    const verdicts: string[] = [];
    for (let t = 1; t <= 61; t++) verdicts.push(pace.observe(t, t * SECOND));
    expect(verdicts.slice(0, 59)).toEqual(Array(59).fill('flowing'));
    expect(verdicts.at(-1)).toBe('too slow');
  });

  it('keeps a slow but honest body (10 KiB/s, with a 10 s pause now and then) going for an hour', () => {
    const pace = createUploadPace(limits, 0);
    let bytes = 0;
    for (let t = 1; t <= 3600; t++) {
      // 10 s without a byte every 10 minutes, made up afterwards.
      const paused = t % 600 >= 590;
      if (!paused) bytes += t % 600 === 0 ? 10 * 1024 * 11 : 10 * 1024;
      expect(pace.observe(bytes, t * SECOND), `at ${t} s`).toBe('flowing');
    }
  });

  it('averages over the last minute: a fast start does not pay for a trickle later', () => {
    const pace = createUploadPace(limits, 0);
    expect(pace.observe(100 * 1024 * 1024, 10 * SECOND)).toBe('flowing');
    let verdict = 'flowing';
    let t = 10;
    while (verdict === 'flowing' && t < 300) {
      t++;
      verdict = pace.observe(100 * 1024 * 1024 + t, t * SECOND);
    }
    expect(verdict).toBe('too slow');
    expect(t).toBeLessThanOrEqual(72);
  });

  it('cuts a body without a byte for the idle timeout, even with no minimum rate', () => {
    const pace = createUploadPace({ ...limits, minBytesPerSecond: 0 }, 0);
    expect(pace.observe(10, SECOND)).toBe('flowing');
    expect(pace.observe(10, 60 * SECOND)).toBe('flowing');
    expect(pace.observe(10, 61 * SECOND)).toBe('idle');
  });

  it('treats the owner’s added and replaced files as uploads, and nothing else new', () => {
    expect(isUploadRequest('POST', '/api/projects/abc/files')).toBe(true);
    expect(isUploadRequest('PUT', '/api/projects/abc/files/def')).toBe(true);
    expect(isUploadRequest('DELETE', '/api/projects/abc/files/def')).toBe(false);
    expect(isUploadRequest('PATCH', '/api/projects/abc')).toBe(false);
  });
});

describe('trickling uploads on a running app', () => {
  it('cuts a publish whose body trickles in once a minute averages below the minimum, while a slow but honest one publishes', async () => {
    const clock = createFakeClock();
    app = await startTestApp({ clock, startWorker: false, config: { http: { ...HTTP_DEFAULTS, uploadMinBytesPerSecond: 1_000 } } });
    const port = Number(new URL(app.url).port);
    const { body, type } = await encodeForm(buildUploadForm([{ name: 'photo.jpg', type: 'image/jpeg', bytes: Buffer.alloc(2_000_000, 7) }], { title: 'Slow but honest' }));
    const honest = await rawClient(port);
    const trickler = await rawClient(port);
    honest.socket.write(head('POST', '/api/upload', { 'Content-Type': type, 'Content-Length': body.length }));
    trickler.socket.write(head('POST', '/api/upload', { 'Content-Type': type, 'Content-Length': body.length }));
    trickler.socket.write(body.subarray(0, 1_000));

    // Steps of 10 s on the app's clock, one each time the poll looks: the honest client sends 50 kB a
    // step (5 kB/s), the other a byte, until the server has judged a whole minute of the trickle and
    // cut it. However late the server's checks come, the honest body keeps its average.
    const step = 50_000;
    let sent = 0;
    let steps = 0;
    await expect
      .poll(
        () => {
          if (trickler.isClosed() || sent + step >= body.length) return trickler.isClosed();
          honest.socket.write(body.subarray(sent, sent + step));
          sent += step;
          trickler.socket.write(body.subarray(1_000 + steps, 1_001 + steps));
          steps++;
          clock.advance(10 * SECOND);
          return false;
        },
        { timeout: 60_000, interval: 50 },
      )
      .toBe(true);
    expect(trickler.received()).toBe('');
    expect(honest.isClosed()).toBe(false);
    honest.socket.write(body.subarray(sent));
    const answer = await honest.answer();
    expect(answer.status, answer.body).toBe(201);
    expect((JSON.parse(answer.body) as TJson).slug).toEqual(expect.any(String));
  });

  it('lets an owner’s file replacement run past the ordinary request deadline while its bytes flow', async () => {
    const clock = createFakeClock();
    app = await startTestApp({ clock, startWorker: false, config: { http: { ...HTTP_DEFAULTS, requestTimeoutMs: 200 } } });
    const creator = await createSignedInCreator(app.deps, { email: 'owner@example.com' });
    const publish = await fetch(`${app.url}/api/upload`, {
      method: 'POST',
      headers: { Cookie: creator.cookie },
      body: buildUploadForm([{ name: 'first.jpg', type: 'image/jpeg', bytes: await makeJpeg(64, 48, 1) }]),
    });
    expect(publish.status).toBe(201);
    const slug = ((await publish.json()) as TJson).slug as string;
    const site = await app.deps.db.selectFrom('projects').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
    await app.deps.db.updateTable('projects').set({ owner_creator_id: creator.id, workspace_id: creator.id }).where('id', '=', site.id).execute();
    const file = await app.deps.db.selectFrom('files').select('id').where('project_id', '=', site.id).executeTakeFirstOrThrow();

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await makeJpeg(80, 60, 2))], { type: 'image/jpeg' }), 'second.jpg');
    const { body, type } = await encodeForm(form);
    const client = await rawClient(Number(new URL(app.url).port));
    client.socket.write(head('PUT', `/api/projects/${site.id}/files/${file.id}`, { 'Content-Type': type, 'Content-Length': body.length, Cookie: creator.cookie }));
    client.socket.write(body.subarray(0, 100));
    // An ordinary request started after it, its body stalled too: its 408 says the 200 ms deadline of an
    // ordinary body has passed for the replacement as well (which used to be cut at it).
    const ordinary = await rawClient(Number(new URL(app.url).port));
    ordinary.socket.write(head('PATCH', `/api/projects/${site.id}`, { 'Content-Type': 'application/json', 'Content-Length': 100, Cookie: creator.cookie }));
    ordinary.socket.write('{');
    client.socket.write(body.subarray(100, 300));
    expect((await ordinary.answer()).status).toBe(408);
    // Bytes still coming, past the deadline.
    client.socket.write(body.subarray(300, 500));
    expect(client.isClosed()).toBe(false);
    client.socket.write(body.subarray(500));
    const answer = await client.answer();
    expect(answer.status, answer.body).toBe(200);
    expect(answer.body).toContain('second.jpg');
  });
});

describe('chunk uploads in flight', () => {
  const CHUNK = CHUNK_SIZE;

  async function startChunkApp(overrides: Partial<TConfig['http']>): Promise<{ port: number; session: (address: string) => Promise<string> }> {
    app = await startTestApp({ clock: createFakeClock(), startWorker: false, config: { trustProxy: 1, http: { ...HTTP_DEFAULTS, ...overrides } } });
    const a = app;
    return {
      port: Number(new URL(a.url).port),
      session: async (address) => {
        // A file of twenty chunks, as announced (only the first bytes of a chunk are ever sent).
        const init = await callJson(
          a.url,
          'POST',
          '/api/chunked-upload/init',
          { ...FORM, files: [{ name: 'big.bin', size: 20 * CHUNK, type: 'application/octet-stream' }] },
          { 'x-forwarded-for': address },
        );
        expect(init.status).toBe(201);
        const url = (init.body.uploadUrls as Array<{ uploadUrl: string }>)[0]!.uploadUrl;
        return url;
      },
    };
  }

  /** A chunk whose headers and first KiB are sent, the rest held back: it stays in flight. */
  async function holdChunk(port: number, uploadUrl: string, index: number, address: string): Promise<TRawClient> {
    const client = await rawClient(port);
    client.socket.write(head('POST', `${uploadUrl}?chunk=${index}`, { 'Content-Type': 'application/octet-stream', 'Content-Length': CHUNK, 'X-Forwarded-For': address }));
    client.socket.write(Buffer.alloc(1024, 1));
    return client;
  }

  /** A whole chunk sent with a checksum it does not have: 400 when let in (nothing stored), 429 when refused. */
  async function probe(port: number, uploadUrl: string, index: number, address: string): Promise<TRawAnswer> {
    const client = await rawClient(port);
    client.socket.write(
      head('POST', `${uploadUrl}?chunk=${index}`, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': 16,
        'X-Chunk-Sha256': '0'.repeat(64),
        'X-Forwarded-For': address,
      }),
    );
    client.socket.write(Buffer.alloc(16, 2));
    const answer = await client.answer();
    client.socket.destroy();
    return answer;
  }

  it('answers 429 with Retry-After to the chunk past the limit of one session, and lets it in once one finishes', async () => {
    const { port, session } = await startChunkApp({ chunksInFlightPerSession: 3, chunksInFlightPerAddress: 100 });
    const address = '198.51.100.10';
    const url = await session(address);
    const held = [await holdChunk(port, url, 0, address), await holdChunk(port, url, 1, address), await holdChunk(port, url, 2, address)];
    await expect.poll(async () => (await probe(port, url, 3, address)).status, { timeout: 10_000 }).toBe(429);
    const refused = await probe(port, url, 3, address);
    expect(refused.status).toBe(429);
    expect(refused.head).toMatch(/^retry-after: \d+$/im);
    expect(refused.body).toContain('Too many chunks of this upload are being sent at once');
    // Another session of another address is not held up.
    const other = await session('198.51.100.11');
    expect((await probe(port, other, 0, '198.51.100.11')).status).toBe(400);
    held[0]!.socket.destroy();
    await expect.poll(async () => (await probe(port, url, 3, address)).status, { timeout: 10_000 }).toBe(400);
  });

  it('answers 429 to the chunk past the limit of one address across its sessions, while another address still sends', async () => {
    const { port, session } = await startChunkApp({ chunksInFlightPerSession: 3, chunksInFlightPerAddress: 4 });
    const address = '198.51.100.20';
    const first = await session(address);
    const second = await session(address);
    await holdChunk(port, first, 0, address);
    await holdChunk(port, first, 1, address);
    await holdChunk(port, first, 2, address);
    await holdChunk(port, second, 0, address);
    await expect.poll(async () => (await probe(port, second, 1, address)).status, { timeout: 10_000 }).toBe(429);
    const elsewhere = await session('198.51.100.21');
    expect((await probe(port, elsewhere, 0, '198.51.100.21')).status).toBe(400);
  });
});

describe('connections per address', () => {
  async function listen(trustProxy: TConfig['trustProxy']): Promise<number> {
    const server = createHttpServer(
      (_req, res) => {
        res.setHeader('Content-Length', 2);
        res.end('ok');
      },
      { ...HTTP_DEFAULTS, maxConnectionsPerAddress: 3 },
      trustProxy,
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return (server.address() as AddressInfo).port;
  }

  /** A connection that has been answered once and is kept alive: the server has counted it. */
  async function openAndAsk(port: number, localAddress = '127.0.0.1'): Promise<TRawClient> {
    const client = await rawClient(port, localAddress);
    client.socket.write(head('GET', '/', {}));
    expect((await client.answer()).status).toBe(200);
    return client;
  }

  it('closes a connection past HTTP_MAX_CONNECTIONS_PER_ADDRESS unanswered, while another address still connects', async () => {
    const port = await listen(false);
    const held = [await openAndAsk(port), await openAndAsk(port), await openAndAsk(port)];
    const extra = await rawClient(port);
    extra.socket.write(head('GET', '/', {}));
    await extra.closed;
    expect(extra.received()).toBe('');
    // Another client address (127.0.0.2 is loopback too) is answered.
    await openAndAsk(port, '127.0.0.2');
    // One held connection closes: the address may connect again.
    held[0]!.socket.destroy();
    await expect
      .poll(
        async () => {
          const again = await rawClient(port);
          again.socket.write(head('GET', '/', {}));
          return again.answer().then(
            (a) => a.status,
            () => 0,
          );
        },
        { timeout: 10_000 },
      )
      .toBe(200);
  });

  it('leaves the cap to the proxy when one is trusted (every connection comes from it)', async () => {
    const port = await listen(1);
    for (let i = 0; i < 5; i++) await openAndAsk(port);
  });
});
