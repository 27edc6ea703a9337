import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UPLOADS_PREFIX } from '@dropsite/shared';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function countRows(app: TTestApp) {
  const sites = await app.deps.db
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const files = await app.deps.db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { projects: Number(sites.n), files: Number(files.n) };
}

async function listKeys(app: TTestApp, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of app.deps.storage.list(prefix)) keys.push(o.key);
  return keys;
}

describe('POST /api/upload', () => {
  let app: TTestApp;
  beforeEach(async () => {
    app = await startTestApp({ config: { maxUploadBytes: 2_000_000 } });
  });
  afterEach(async () => {
    await app.close();
  });

  it('publishes files, answers { success, url, slug } and the site goes live with a thumbnail per image', async () => {
    const images = await Promise.all([makeJpeg(1200, 800, 1), makeJpeg(800, 1200, 2), makeJpeg(1000, 1000, 3)]);
    const form = buildUploadForm(images.map((bytes, i) => ({ name: `photo-${i + 1}.jpg`, type: 'image/jpeg', bytes })));
    const { status, body } = await postUpload(app.url, form);
    expect(status).toBe(201);
    expect(body.success).toBe(true);
    expect(body.slug).toMatch(/^[a-z0-9]{8,}$/);
    expect(body.url).toBe(`${app.url}/${body.slug}`);

    await app.deps.queue.whenIdle();
    const page = await fetch(`${app.url}/${body.slug}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Autumn Wedding');
    expect(html.match(/size=300/g)?.length).toBeGreaterThanOrEqual(3);

    const status2 = await (await fetch(`${app.url}/api/sites/${body.slug}/status`)).json();
    expect(status2).toMatchObject({ success: true, status: 'live', progress: 100 });

    const rows = await app.deps.db.selectFrom('files').selectAll().orderBy('position').execute();
    expect(rows.map((r) => r.name)).toEqual(['photo-1.jpg', 'photo-2.jpg', 'photo-3.jpg']);
    expect(rows.map((r) => r.sha256)).toEqual(images.map(sha256));
    expect(rows.every((r) => r.kind === 'image')).toBe(true);
  });

  it('gives a second site with the same bytes its thumbnails too (derivations are shared by content hash)', async () => {
    const bytes = await makeJpeg(900, 600, 5);
    const first = await postUpload(app.url, buildUploadForm([{ name: 'same.jpg', type: 'image/jpeg', bytes }]));
    await app.deps.queue.whenIdle();
    const second = await postUpload(app.url, buildUploadForm([{ name: 'same-again.jpg', type: 'image/jpeg', bytes }]));
    await app.deps.queue.whenIdle();
    for (const slug of [first.body.slug, second.body.slug]) {
      const html = await (await fetch(`${app.url}/${slug}`)).text();
      const id = /\/api\/files\/([\w-]{22})\?mode=preview&(?:amp;)?size=300/.exec(html)?.[1];
      expect(id, String(slug)).toBeDefined();
      expect((await fetch(`${app.url}/api/files/${id}?mode=preview&size=300`)).status).toBe(200);
    }
  });

  it('shows a holding page that refreshes while the site is still building', async () => {
    await app.close();
    app = await startTestApp({ startWorker: false });
    const { body } = await postUpload(app.url, buildUploadForm([{ name: 'a.jpg', type: 'image/jpeg', bytes: await makeJpeg(50, 50) }]));
    const res = await fetch(`${app.url}/${body.slug}`);
    expect(res.status).toBe(202);
    const html = await res.text();
    expect(html).toContain('http-equiv="refresh"');
    expect(html).toContain('Preparing your site');
    await app.startWorker();
    await app.deps.queue.whenIdle();
    expect((await fetch(`${app.url}/${body.slug}`)).status).toBe(200);
  });

  it('refuses a blank title with 400 and keeps no bytes and no rows', async () => {
    const form = buildUploadForm([{ name: 'a.jpg', type: 'image/jpeg', bytes: await makeJpeg(40, 40) }], { title: '   ' });
    const { status, body } = await postUpload(app.url, form);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, code: 'validation_failed' });
    expect(String(body.error)).toContain('Site Title is required');
    expect(await listKeys(app, UPLOADS_PREFIX)).toEqual([]);
    expect(await countRows(app)).toEqual({ projects: 0, files: 0 });
  });

  it('refuses an upload without files, and a body that is not multipart', async () => {
    const empty = await postUpload(app.url, buildUploadForm([]));
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('Please choose at least one file to upload');
    const json = await fetch(`${app.url}/api/upload`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ success: false, code: 'bad_request' });
  });

  it('refuses an upload over the size limit with 413 and removes what had arrived', async () => {
    const big = new Uint8Array(1_500_000).fill(7);
    const form = buildUploadForm([
      { name: 'one.bin', type: 'application/octet-stream', bytes: big },
      { name: 'two.bin', type: 'application/octet-stream', bytes: big },
    ]);
    const { status, body } = await postUpload(app.url, form);
    expect(status).toBe(413);
    expect(body.success).toBe(false);
    expect(await listKeys(app, UPLOADS_PREFIX)).toEqual([]);
    expect(await countRows(app)).toEqual({ projects: 0, files: 0 });
  });

  it('refuses settings that are not JSON, and an expiry date in the past', async () => {
    const bytes = await makeJpeg(30, 30);
    const bad = await postUpload(app.url, buildUploadForm([{ name: 'a.jpg', type: 'image/jpeg', bytes }], { settings: '{oops' }));
    expect(bad.status).toBe(400);
    expect(String(bad.body.error)).toContain('settings');
    const past = await postUpload(app.url, buildUploadForm([{ name: 'a.jpg', type: 'image/jpeg', bytes }], { expiryDate: '2001-01-01T00:00' }));
    expect(past.status).toBe(400);
    expect(past.body.error).toBe('Expiry date must be in the future');
    expect(await listKeys(app, UPLOADS_PREFIX)).toEqual([]);
  });

  it('answers 400 to a truncated multipart body and keeps serving', async () => {
    const boundary = 'XyZ123';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\npartial bytes`;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${app.url}/api/upload`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(400);
    expect(await listKeys(app, UPLOADS_PREFIX)).toEqual([]);
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  });

  it('keeps a cleaned display name, never the client path', async () => {
    const bytes = await makeJpeg(30, 30);
    const form = buildUploadForm([
      { name: '../../etc/passwd.jpg', type: 'image/jpeg', bytes },
      { name: 'invoice\u202Egpj.exe', type: 'application/octet-stream', bytes: new Uint8Array([1, 2, 3]) },
      { name: 'Café menu.jpg', type: 'image/jpeg', bytes },
    ]);
    const { status } = await postUpload(app.url, form);
    expect(status).toBe(201);
    const rows = await app.deps.db.selectFrom('files').select(['name', 'storage_key']).orderBy('position').execute();
    expect(rows.map((r) => r.name)).toEqual(['passwd.jpg', 'invoicegpj.exe', 'Café menu.jpg']);
    for (const r of rows) expect(r.storage_key).toMatch(/^uploads\/[\w-]{22}\/[\w-]{22}$/);
  });

  it('refuses a cross-site POST by its Origin', async () => {
    const form = buildUploadForm([{ name: 'a.jpg', type: 'image/jpeg', bytes: await makeJpeg(30, 30) }]);
    const { status, body } = await postUpload(app.url, form, { origin: 'https://evil.example' });
    expect(status).toBe(403);
    expect(body).toMatchObject({ success: false, code: 'forbidden' });
  });
});
