import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestApp, createFakeClock, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';
import Database from 'better-sqlite3';
import path from 'node:path';

describe('GET /api/files/{id}', () => {
  let app: TTestApp;
  const clock = createFakeClock();
  let jpeg: Buffer;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp({ clock });
    jpeg = await makeJpeg(1600, 1000, 4);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>';
    const files = [
      { name: 'cover.jpg', type: 'image/jpeg', bytes: jpeg },
      { name: 'logo.svg', type: 'image/svg+xml', bytes: new TextEncoder().encode(svg) },
      { name: 'page.html', type: 'text/html', bytes: new TextEncoder().encode('<script>alert(1)</script>') },
      { name: 'Ünïcode “quote”.txt', type: 'text/plain', bytes: new TextEncoder().encode('hello world') },
    ];
    const { body } = await postUpload(app.url, buildUploadForm(files));
    await app.deps.queue.whenIdle();
    const rows = await app.deps.db.selectFrom('files').select(['id', 'name']).execute();
    for (const r of rows) ids[r.name] = r.id;
    expect(body.success).toBe(true);
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (id: string, query = '', headers: Record<string, string> = {}) => fetch(`${app.url}/api/files/${id}${query}`, { headers });

  it('downloads the original bytes as an attachment with nosniff and a sandboxing CSP', async () => {
    const res = await get(ids['cover.jpg']!, '?mode=download');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="cover.jpg"/);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox/);
    expect(Buffer.from(await res.arrayBuffer()).equals(jpeg)).toBe(true);
  });

  it('previews an image inline through its display copy, never larger than 1600 px', async () => {
    const res = await get(ids['cover.jpg']!, '?mode=preview');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('content-disposition')).toMatch(/^inline/);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.width).toBe(1600);
    expect(meta.height).toBe(1000);
  });

  it('previews a text file inline as plain text', async () => {
    const res = await get(ids['Ünïcode “quote”.txt']!, '?mode=preview');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^inline/);
    expect(await res.text()).toBe('hello world');
  });

  it('serves a 300 px WebP thumbnail for size=300', async () => {
    const res = await get(ids['cover.jpg']!, '?mode=preview&size=300');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(300);
    expect(meta.width).toBe(300);
  });

  it('never serves SVG or HTML inline: attachment and octet-stream even for preview', async () => {
    for (const name of ['logo.svg', 'page.html']) {
      const res = await get(ids[name]!, '?mode=preview');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
      expect(res.headers.get('content-security-policy')).toMatch(/^sandbox/);
    }
  });

  it('encodes non-ASCII file names per RFC 5987', async () => {
    const res = await get(ids['Ünïcode “quote”.txt']!, '?mode=download');
    expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''%C3%9Cn%C3%AFcode%20%E2%80%9Cquote%E2%80%9D.txt");
  });

  it('answers byte ranges: 206 for one range, 200 for junk, 416 beyond the end', async () => {
    const id = ids['cover.jpg']!;
    const partial = await get(id, '?mode=download', { range: 'bytes=0-9' });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe(`bytes 0-9/${jpeg.length}`);
    expect(Buffer.from(await partial.arrayBuffer()).equals(jpeg.subarray(0, 10))).toBe(true);
    const tail = await get(id, '?mode=download', { range: 'bytes=-5' });
    expect(Buffer.from(await tail.arrayBuffer()).equals(jpeg.subarray(jpeg.length - 5))).toBe(true);
    const reversed = await get(id, '?mode=download', { range: 'bytes=10-5' });
    expect(reversed.status).toBe(200);
    await reversed.arrayBuffer();
    const many = await get(id, '?mode=download', { range: `bytes=${Array.from({ length: 1000 }, () => '0-').join(',')}` });
    expect(many.status).toBe(200);
    await many.arrayBuffer();
    const beyond = await get(id, '?mode=download', { range: `bytes=${jpeg.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${jpeg.length}`);
  });

  it('answers 404 the same way for unknown ids, malformed ids and traversal attempts', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', '..%2F..%2Fetc', '12', 'a%00b', '..++x']) {
      const res = await get(id);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ success: false, code: 'not_found' });
    }
  });

  it('refuses a size other than 300 and an unknown mode', async () => {
    expect((await get(ids['cover.jpg']!, '?size=1200')).status).toBe(400);
    expect((await get(ids['cover.jpg']!, '?mode=raw')).status).toBe(400);
  });

  it('answers 410 for every file once the site has expired, at the instant of expiry', async () => {
    const site = await app.deps.db.selectFrom('projects').select('id').executeTakeFirstOrThrow();
    await app.deps.db
      .updateTable('projects')
      .set({ expires_at: clock.now() + 60_000 })
      .where('id', '=', site.id)
      .execute();
    expect((await get(ids['cover.jpg']!, '?mode=download')).status).toBe(200);
    clock.advance(60_000);
    const res = await get(ids['cover.jpg']!, '?mode=download');
    expect(res.status).toBe(410);
    expect((await get(ids['cover.jpg']!, '?size=300')).status).toBe(410);
    await app.deps.db.updateTable('projects').set({ expires_at: null }).where('id', '=', site.id).execute();
  });

  it('refuses every file of a password-protected site without an unlock', async () => {
    const site = await app.deps.db.selectFrom('projects').select(['id', 'slug']).executeTakeFirstOrThrow();
    await app.deps.db.updateTable('projects').set({ password_hash: 'scrypt$16384$8$1$x$y' }).where('id', '=', site.id).execute();
    expect((await get(ids['cover.jpg']!, '?mode=download')).status).toBe(401);
    expect((await get(ids['cover.jpg']!, '?size=300')).status).toBe(401);
    expect((await fetch(`${app.url}/${site.slug}`)).status).toBe(401);
    await app.deps.db.updateTable('projects').set({ password_hash: null }).where('id', '=', site.id).execute();
  });

  it('sees a file taken away or a site deleted by another process at the very next request', async () => {
    const id = ids['cover.jpg']!;
    expect((await get(id, '?size=300')).status).toBe(200);
    expect((await get(id, '?size=300')).status).toBe(200);
    // An ops command on the same database file: its commit is not a statement of this process.
    const other = new Database(path.join(app.dataDir, 'test.db'));
    try {
      const { project_id: siteId } = other.prepare('select project_id from files where id = ?').get(id) as { project_id: string };
      other.prepare('update projects set deleted_at = ? where id = ?').run(clock.now(), siteId);
      expect((await get(id, '?size=300')).status).toBe(404);
      expect((await get(id, '?mode=download')).status).toBe(404);
      other.prepare('update projects set deleted_at = null where id = ?').run(siteId);
      expect((await get(id, '?size=300')).status).toBe(200);
    } finally {
      other.close();
    }
  });
});
