/**
 * A browser that opens an archive entry itself (a new tab, or a download that was refused after
 * the viewer asked) reads the refusal as a short page, never the API's JSON; other clients keep
 * the JSON error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { makeYazlZip } from '@dropsite/testkit/control-api/download-fixtures';
import { ENTRY_TOO_COMPRESSED } from './archive-budget.ts';

const NAVIGATION_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('archive entry refusals for a browser navigation', () => {
  let app: TTestApp;
  let zipId = '';

  beforeAll(async () => {
    app = await startTestApp();
    const archive = await makeYazlZip([
      { name: 'readme.txt', data: 'Read me first.\n' },
      { name: 'zeros.bin', data: Buffer.alloc(50 * 1024 ** 2) },
    ]);
    const upload = await postUpload(app.url, buildUploadForm([{ name: 'delivery.zip', type: 'application/zip', bytes: archive }], { title: 'Delivery' }));
    expect(upload.status).toBe(201);
    await app.deps.queue.whenIdle();
    zipId = (await app.deps.db.selectFrom('files').select('id').where('name', '=', 'delivery.zip').executeTakeFirstOrThrow()).id;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  const entry = (path: string, accept: string) => fetch(`${app.url}/api/files/${zipId}/entry?path=${encodeURIComponent(path)}`, { headers: { Accept: accept } });

  it('answers a navigation with a readable page and the same status', async () => {
    const res = await entry('zeros.bin', NAVIGATION_ACCEPT);
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await res.text();
    expect(html).toContain(ENTRY_TOO_COMPRESSED);
    expect(html).toContain('<h1>');
    expect(html).not.toContain('"success"');

    const missing = await entry('nothing-here.txt', NAVIGATION_ACCEPT);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('File not found in this archive');
  });

  it('keeps the JSON error for other clients, and serves allowed entries as before', async () => {
    const res = await entry('zeros.bin', '*/*');
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ success: false, error: ENTRY_TOO_COMPRESSED, code: 'payload_too_large' });
    const ok = await entry('readme.txt', NAVIGATION_ACCEPT);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('Read me first.\n');
  });
});
