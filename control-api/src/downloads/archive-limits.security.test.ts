/**
 * Archive entries cost the server CPU (inflating), so what a visitor may extract is bounded
 * before anything is inflated: a zip bomb's entries are refused at once, one request and one
 * address per minute have byte budgets, selections are stored rather than deflated again, and
 * one process streams only so many archive and ZIP downloads at once.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { loadConfig } from '../config/config.ts';
import { buildUploadForm, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { makeYazlZip } from '@dropsite/testkit/control-api/download-fixtures';
import { ENTRY_BUDGET_SPENT, ENTRY_TOO_COMPRESSED, ENTRY_TOO_LARGE, ZIPS_BUSY } from './archive-budget.ts';

const MiB = 1024 ** 2;

describe('archive entry and ZIP download limits', () => {
  let app: TTestApp;
  let slug = '';
  let zipId = '';
  let zipSize = 0;
  const small = 3 * MiB;

  beforeAll(async () => {
    const base = loadConfig({});
    app = await startTestApp({
      config: { archives: { ...base.archives, entryMaxBytes: 4 * MiB, entryBytesPerMinute: 7 * MiB, maxConcurrentZips: 1 } },
    });
    const zeros = Buffer.alloc(200 * MiB);
    const archive = await makeYazlZip([
      { name: 'bomb/a.bin', data: zeros },
      { name: 'bomb/b.bin', data: zeros },
      { name: 'bomb/c.bin', data: zeros },
      { name: 'notes/readme.txt', data: 'Read me first.\n'.repeat(400) },
      { name: 'notes/more.txt', data: 'And then this.\n'.repeat(400) },
      { name: 'data/one.bin', data: randomBytes(small), compress: false },
      { name: 'data/two.bin', data: randomBytes(small), compress: false },
      { name: 'data/large.bin', data: randomBytes(24 * MiB), compress: false },
    ]);
    zipSize = archive.length;
    const upload = await postUpload(app.url, buildUploadForm([{ name: 'bomb.zip', type: 'application/zip', bytes: archive }], { title: 'Bomb' }));
    expect(upload.status).toBe(201);
    slug = String(upload.body.slug);
    await app.deps.queue.whenIdle();
    zipId = (await app.deps.db.selectFrom('files').select('id').where('name', '=', 'bomb.zip').executeTakeFirstOrThrow()).id;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  const entry = (...paths: string[]) => fetch(`${app.url}/api/files/${zipId}/entry?${paths.map((p) => `path=${encodeURIComponent(p)}`).join('&')}`);

  it('refuses a zip bomb entry with 413 before inflating it, and answers at once', async () => {
    expect(zipSize).toBeLessThan(32 * MiB); // 600 MB of zeros in well under a MB, plus 30 MB of data
    const started = performance.now();
    const res = await entry('bomb/a.bin');
    const body = await res.text();
    const elapsed = performance.now() - started;
    expect(res.status).toBe(413);
    expect(JSON.parse(body)).toEqual({ success: false, error: ENTRY_TOO_COMPRESSED, code: 'payload_too_large' });
    expect(elapsed).toBeLessThan(2000);

    const all = await entry('bomb/a.bin', 'bomb/b.bin', 'bomb/c.bin');
    expect(all.status).toBe(413);
    await all.arrayBuffer();
  });

  it('refuses a request whose entries together exceed the per-request budget', async () => {
    const res = await entry('data/one.bin', 'data/two.bin');
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ success: false, error: ENTRY_TOO_LARGE, code: 'payload_too_large' });
  });

  it('stores the entries of a selection ZIP instead of deflating them again, with a Content-Length', async () => {
    const res = await entry('notes/readme.txt', 'notes/more.txt');
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    const zipfile = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
    const methods: Record<string, number> = {};
    for await (const e of zipfile.eachEntry()) methods[e.fileName] = e.compressionMethod;
    expect(methods).toEqual({ 'notes/readme.txt': 0, 'notes/more.txt': 0 });
  });

  it('answers 429 with Retry-After once an address has extracted its bytes for the minute', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await entry(i === 0 ? 'data/one.bin' : 'data/two.bin');
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(small);
    }
    const refused = await entry('data/one.bin');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ success: false, error: ENTRY_BUDGET_SPENT, code: 'rate_limited' });
  });

  it('streams only so many ZIP downloads at once: the next one gets 503 with Retry-After', async () => {
    const limiter = app.deps.limits.archives;
    const stop = new AbortController();
    // A client that does not read: the site ZIP (about 30 MB) stays in flight, holding the only slot.
    const slow = await fetch(`${app.url}/api/sites/${slug}/download`, { signal: stop.signal });
    expect(slow.status).toBe(200);
    expect(limiter.active()).toBe(1);

    const busy = await fetch(`${app.url}/api/sites/${slug}/download`);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await busy.json()).toEqual({ success: false, error: ZIPS_BUSY, code: 'service_unavailable' });
    const busyEntry = await entry('notes/readme.txt');
    expect(busyEntry.status).toBe(503);
    await busyEntry.arrayBuffer();

    stop.abort();
    await slow.body?.cancel().catch(() => {});
    await expect.poll(() => limiter.active(), { timeout: 2_000, interval: 20 }).toBe(0);
    const again = await entry('notes/readme.txt');
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  });
});
