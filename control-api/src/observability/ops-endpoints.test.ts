/**
 * The operator's endpoints as a monitoring system sees them: /healthz and /readyz on the main port,
 * /metrics only to a bearer of the token there and freely on the private ops listener, request
 * series labelled by route pattern (never by slug), and a publish's request id in every log line of
 * the build it queued.
 */
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger.ts';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { seedSite } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createOpsServer } from './ops-endpoints.ts';

const TOKEN = 'scrape-token-0123456789';

/** Runs `use` against a private ops listener (OPS_PORT) of the same process. */
async function withOpsListener(endpoints: Parameters<typeof createOpsServer>[0], use: (base: string) => Promise<void>): Promise<void> {
  const server = createOpsServer(endpoints);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.close();
  }
}

describe('ops endpoints', () => {
  let app: TTestApp;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    app = await startTestApp({ log: createLogger('info', sink), config: { ops: { port: undefined, host: '127.0.0.1', metricsToken: TOKEN } } });
  }, 60_000);
  afterAll(() => app?.close());

  it('/healthz answers 200 while the process is up', async () => {
    const res = await fetch(`${app.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz on the public port says ready without naming its checks; the private listener names each: the database, migrations, the queue and the store', async () => {
    const res = await fetch(`${app.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready' });
    await withOpsListener(app.deps, async (base) => {
      const ops = await fetch(`${base}/readyz`);
      expect(ops.status).toBe(200);
      expect(await ops.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok', storage: 'ok' } });
    });
  });

  it('/readyz answers 503 when the store cannot be reached: the failing check named on the private listener only, its error nowhere', async () => {
    // Only the clock moves: the readiness answer is cached for a second, read from Date.now().
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const pastTheCachedAnswer = () => vi.setSystemTime(Date.now() + 1_100);
    pastTheCachedAnswer();
    const head = vi.spyOn(app.deps.storage, 'head').mockRejectedValue(new Error('connect ECONNREFUSED 10.0.0.7:9000'));
    try {
      const res = await fetch(`${app.url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      const body = await res.text();
      expect(JSON.parse(body)).toEqual({ status: 'not ready' });
      expect(body).not.toContain('storage');
      await withOpsListener(app.deps, async (base) => {
        const ops = await fetch(`${base}/readyz`);
        expect(ops.status).toBe(503);
        const opsBody = await ops.text();
        expect(JSON.parse(opsBody)).toEqual({ status: 'not ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok', storage: 'unreachable' } });
        expect(opsBody).not.toContain('10.0.0.7');
      });
      expect(lines.some((l) => l.msg === 'readiness check failed' && l.check === 'storage')).toBe(true);
    } finally {
      head.mockRestore();
    }
    try {
      pastTheCachedAnswer();
      expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('/metrics on the main port asks for the token: none is 401, a wrong one is 401, the right one gets the text', async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${app.url}/metrics`, { headers: { Authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    const res = await fetch(`${app.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    for (const name of ['dropsite_http_request_duration_seconds', 'dropsite_upload_sessions_open', 'dropsite_build_queue_jobs', 'dropsite_builds_total']) {
      expect(text).toContain(`# TYPE ${name}`);
    }
  });

  it('labels requests by route pattern, so a thousand sites make one series, and counts the bytes sent', async () => {
    const site = await seedSite(app);
    expect((await fetch(`${app.url}/${site.slug}`)).status).toBe(200);
    const text = await (await fetch(`${app.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    expect(text).toMatch(/dropsite_http_request_duration_seconds_count\{route="\/:slug",method="GET",status="200"\} [1-9]/);
    expect(text).not.toContain(site.slug);
    expect(text).toMatch(/dropsite_http_sent_bytes_total\{route="\/:slug"\} [1-9]\d+/);
  });

  it('keeps a safe X-Request-Id from a proxy, and replaces one that is not safe to log', async () => {
    expect((await fetch(`${app.url}/api/health`, { headers: { 'X-Request-Id': 'edge-7f3a:42' } })).headers.get('x-request-id')).toBe('edge-7f3a:42');
    const replaced = (await fetch(`${app.url}/api/health`, { headers: { 'X-Request-Id': 'a"b{c}' } })).headers.get('x-request-id');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("names the publish's request id in the build's log lines, the builder's included, and records the build in the metrics", async () => {
    const requestId = 'publish-req-0001';
    const { status } = await postUpload(app.url, buildUploadForm([{ name: 'harbour.jpg', type: 'image/jpeg', bytes: await makeJpeg(320, 240, 3) }], { title: 'Harbour' }), {
      'X-Request-Id': requestId,
    });
    expect(status).toBe(201);
    await app.deps.queue.whenIdle();
    const ofRequest = lines.filter((l) => l.requestId === requestId).map((l) => l.msg);
    expect(ofRequest).toEqual(expect.arrayContaining(['build started', 'file derived', 'site built']));
    const text = await (await fetch(`${app.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    expect(text).toMatch(/dropsite_builds_total\{outcome="succeeded"\} [1-9]/);
    expect(text).toMatch(/dropsite_build_duration_seconds_count\{stage="render"\} [1-9]/);
    expect(text).toMatch(/dropsite_derivations_total\{result="miss"\} [1-9]/);
    expect(text).toMatch(/dropsite_build_queue_wait_seconds_count [1-9]/);
    expect(text).toMatch(/dropsite_http_received_bytes_total\{route="\/api\/upload"\} [1-9]\d{3,}/);
  });

  it('the private ops listener serves all three without a token, and nothing else', async () => {
    const server = createOpsServer(app.deps);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('dropsite_http_request_duration_seconds');
      expect((await fetch(`${base}/api/health`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      server.close();
    }
  });

  it('/readyz answers 503 "draining" once shutdown has begun', async () => {
    app.deps.health.startDraining();
    const res = await fetch(`${app.url}/readyz`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { status: string }).status).toBe('draining');
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });
});

describe('ops endpoints without a metrics token', () => {
  let app: TTestApp;
  beforeAll(async () => {
    app = await startTestApp();
  }, 60_000);
  afterAll(() => app?.close());

  it('/metrics is not served on the main port at all: 404 like any unknown path', async () => {
    const res = await fetch(`${app.url}/metrics`, { headers: { Authorization: 'Bearer anything-at-all-0123' } });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('dropsite_');
  });
});
