/**
 * Hostile archives through the whole product (security checklist 52; zip slip, 42.zip, Fifield's
 * overlapped bomb): a published ZIP whose directory lies about sizes, overlaps its entries, holds
 * too many of them or names paths outside itself never stops the build, is never unpacked on the
 * server, and none of its entries can be extracted. The site's own ZIP carries it as stored bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeZip } from '@dropsite/testkit/builder/media-fixtures';
import { loadConfig } from '../config/config.ts';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, postUpload, type TUploadPart } from '@dropsite/testkit/control-api/fixtures';
import { unzip } from '@dropsite/testkit/control-api/download-fixtures';
import { expectApiError, rawRequest } from '@dropsite/testkit/control-api/security-support';

const DEFAULTS = loadConfig({});

describe('hostile archives', () => {
  let app: TTestApp;
  let slug = '';
  const archives: Record<string, Buffer> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp({ config: { rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 100_000 } } });
    const kernel = Buffer.alloc(200_000, 0x61);
    archives['ratio-lie.zip'] = makeZip([{ name: 'bomb.bin', data: 'tiny', declaredSize: 500 * 1024 * 1024 }]);
    archives['overlapped.zip'] = makeZip([
      { name: 'kernel.txt', data: kernel },
      ...Array.from({ length: 50 }, (_, i) => ({ name: `copy-${i}.txt`, sameDataAs: 0, declaredSize: kernel.length })),
    ]);
    archives['too-many.zip'] = makeZip(Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}`, data: '', method: 'store' as const })));
    archives['nested.zip'] = makeZip([
      { name: 'inner.zip', data: makeZip([{ name: 'deeper.zip', data: makeZip([{ name: 'zeros.bin', data: Buffer.alloc(1_000_000) }]) }]), method: 'store' },
    ]);
    archives['slip.zip'] = makeZip([
      { name: '../../../../tmp/dropsite-zip-slip.txt', data: 'escaped' },
      { name: '/etc/cron.d/evil', data: '* * * * * root id' },
      { name: 'C:\\Windows\\evil.dll', data: 'x' },
      { name: 'link', data: '/etc/passwd', mode: 0o120777 },
      { name: 'link/../../escape.txt', data: 'x' },
    ]);
    const parts: TUploadPart[] = Object.entries(archives).map(([name, bytes]) => ({ name, type: 'application/zip', bytes }));
    const published = await postUpload(app.url, buildUploadForm(parts, { title: 'Hostile archives' }));
    expect(published.status).toBe(201);
    slug = String(published.body.slug);
    await app.deps.queue.whenIdle();
    for (const row of await app.deps.db.selectFrom('files').select(['id', 'name']).execute()) ids[row.name] = row.id;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('publishes the site, marking each unsafe archive as not previewable', async () => {
    const site = await app.deps.db.selectFrom('projects').select('status').where('slug', '=', slug).executeTakeFirstOrThrow();
    expect(site.status).toBe('live');
    for (const name of ['ratio-lie.zip', 'overlapped.zip', 'too-many.zip']) {
      const row = await app.deps.db.selectFrom('files').select('metadata').where('id', '=', ids[name]!).executeTakeFirstOrThrow();
      expect(row.metadata, name).toMatch(/cannot be previewed/);
    }
  });

  it('refuses every entry of a bomb at once, without inflating it', async () => {
    for (const [name, path] of [
      ['ratio-lie.zip', 'bomb.bin'],
      ['overlapped.zip', 'kernel.txt'],
      ['overlapped.zip', 'copy-1.txt'],
      ['too-many.zip', 'f1'],
    ] as const) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const res = await rawRequest(app.url, `/api/files/${ids[name]}/entry?path=${path}`);
      expectApiError(res.status, res.text, { status: [404, 413] }, `${name} ${path}`);
      expect(performance.now() - started, name).toBeLessThan(2000);
      expect(process.cpuUsage(cpu).user / 1000, name).toBeLessThan(1500);
    }
  });

  it('never writes or serves an entry outside the archive', async () => {
    for (const path of [
      '../../../../tmp/dropsite-zip-slip.txt',
      'tmp/dropsite-zip-slip.txt',
      '/etc/cron.d/evil',
      'etc/cron.d/evil',
      'C:\\Windows\\evil.dll',
      'link',
      'link/../../escape.txt',
      'escape.txt',
    ]) {
      const res = await rawRequest(app.url, `/api/files/${ids['slip.zip']}/entry?path=${encodeURIComponent(path)}`);
      expectApiError(res.status, res.text, { status: 404 }, path);
    }
    const { existsSync } = await import('node:fs');
    expect(existsSync('/tmp/dropsite-zip-slip.txt')).toBe(false);
    const row = await app.deps.db.selectFrom('files').select('metadata').where('id', '=', ids['slip.zip']!).executeTakeFirstOrThrow();
    expect(row.metadata).not.toContain('dropsite-zip-slip');
    expect(row.metadata).not.toContain('cron.d');
  });

  it('hands out a nested archive as it is stored, never unpacking what is inside', async () => {
    const res = await rawRequest(app.url, `/api/files/${ids['nested.zip']}/entry?path=inner.zip`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toMatch(/^attachment/);
    expect(res.body.length).toBeLessThan(100_000);
    expect([...(await unzip(res.body)).keys()]).toEqual(['deeper.zip']);
  });

  it('puts the archives into the site’s ZIP as their stored bytes', async () => {
    const res = await rawRequest(app.url, `/api/sites/${slug}/download`);
    expect(res.status).toBe(200);
    const entries = await unzip(res.body);
    for (const [name, bytes] of Object.entries(archives)) expect(entries.get(name)?.equals(bytes), name).toBe(true);
    const total = Object.values(archives).reduce((sum, b) => sum + b.length, 0);
    expect(res.body.length).toBeLessThan(total + 10_000);
  });
});
