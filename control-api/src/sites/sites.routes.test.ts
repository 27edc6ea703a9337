import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, createFakeClock, type TTestApp } from '../test-support/test-app.ts';
import { buildUploadForm, makeJpeg, postUpload } from '../test-support/fixtures.ts';

describe('GET /{slug}', () => {
  let app: TTestApp;
  const clock = createFakeClock();
  let slug = '';

  beforeAll(async () => {
    app = await startTestApp({ clock });
    const { body } = await postUpload(app.url, buildUploadForm([{ name: 'a.jpg', type: 'image/jpeg', bytes: await makeJpeg(400, 300) }]));
    slug = String(body.slug);
    await app.deps.queue.whenIdle();
  });
  afterAll(async () => {
    await app.close();
  });

  it('serves the built HTML with its security headers and the shared assets it references', async () => {
    const res = await fetch(`${app.url}/${slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await res.text();
    const assets = [...html.matchAll(/\/_astro\/[\w.-]+\.(?:js|css)/g)].map((m) => m[0]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of new Set(assets)) {
      const a = await fetch(`${app.url}${asset}`);
      expect(a.status, asset).toBe(200);
      expect(a.headers.get('cache-control')).toContain('immutable');
      await a.arrayBuffer();
    }
  });

  it('sends the HTML and the shared assets gzipped to clients that accept it, and plain to those that do not', async () => {
    const { request } = await import('node:http');
    const { gunzipSync } = await import('node:zlib');
    const getRaw = (path: string, encoding: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const req = request(`${app.url}${path}`, { headers: { 'accept-encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    const plain = await getRaw(`/${slug}`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await getRaw(`/${slug}`, 'gzip, deflate, br');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    const asset = /\/_astro\/[\w.-]+\.js/.exec(plain.body.toString())?.[0];
    expect(asset).toBeDefined();
    const js = await getRaw(asset!, 'gzip');
    expect(js.headers['content-encoding']).toBe('gzip');
  });

  it('answers the same 404 page for unknown, reserved and malformed slugs', async () => {
    for (const path of ['/zzzzzzzzzz', '/ABCDEFGHJK', '/abcdefgh%2F..%2Fx', '/abcdefgh%00']) {
      const res = await fetch(`${app.url}${path}`);
      expect(res.status, path).toBe(404);
      await res.text();
    }
  });

  it('answers 410 with a clear page at the instant of expiry', async () => {
    const project = await app.deps.db.selectFrom('projects').select('id').executeTakeFirstOrThrow();
    await app.deps.db.updateTable('projects').set({ expires_at: clock.now() }).where('id', '=', project.id).execute();
    const res = await fetch(`${app.url}/${slug}`);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('This site has expired');
    await app.deps.db.updateTable('projects').set({ expires_at: null }).where('id', '=', project.id).execute();
  });

  it('rebuilds to the same HTML, swapping it in one write', async () => {
    const before = await (await fetch(`${app.url}/${slug}`)).text();
    const { rebuildProjects } = await import('../builds/rebuild.ts');
    const project = await app.deps.db.selectFrom('projects').select('id').executeTakeFirstOrThrow();
    const result = await rebuildProjects(app.deps, [project.id], () => {}, 10);
    expect(result).toMatchObject({ total: 1, done: 1, failed: 0 });
    const after = await (await fetch(`${app.url}/${slug}`)).text();
    expect(after).toBe(before);
  });
});
