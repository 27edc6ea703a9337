import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { request } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppPagePath } from '@dropsite/shared';
import { createDashboardRoutes } from './dashboard-routes.ts';

const BUNDLE = Buffer.from(`export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i % 37}`))};\n`);

/** A request as a browser sends it, the body undecoded. */
function getRaw(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The dashboard's routes served over HTTP from a build folder holding `files` (path → content), then the 404 page. */
async function serveDashboardBuild(files: Record<string, string | Buffer>) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-dashboard-'));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  const app = express();
  const dashboard = createDashboardRoutes({ dashboardDir: dir, csp: "default-src 'self'", publicUrl: 'https://drop.example' });
  app.use(dashboard.router);
  app.use((_req, res) => dashboard.sendNotFound(res));
  const server = await new Promise<ReturnType<express.Express['listen']>>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe('dashboard app paths', () => {
  it('knows the account pages, the dashboard, its project pages and billing', () => {
    for (const p of [
      '/',
      '/sign-in',
      '/reset-password',
      '/verify-email',
      '/undo-email-change',
      '/account',
      '/dashboard',
      '/dashboard/new',
      '/dashboard/projects/AbCdEfGh12345678_-',
      '/billing',
    ])
      expect(isAppPagePath(p), p).toBe(true);
  });

  it('leaves every other path to the sites and the 404 page', () => {
    for (const p of [
      '/billing/x',
      '/templates',
      '/sign-up',
      '/dashboard/projects',
      '/dashboard/projects/short',
      '/dashboard/projects/AbCdEfGh12345678/x',
      '/dashboard/settings',
      '/account/x',
    ])
      expect(isAppPagePath(p), p).toBe(false);
  });

  describe('served', () => {
    let served: Awaited<ReturnType<typeof serveDashboardBuild>>;
    let url = '';

    beforeAll(async () => {
      served = await serveDashboardBuild({
        'index.html': '<!doctype html><div id="root"></div>',
        'assets/app-Ab12.js': BUNDLE,
        'assets/app-Ab12.js.br': brotliCompressSync(BUNDLE),
        'assets/app-Ab12.js.gz': gzipSync(BUNDLE),
        'assets/logo-Cd34.png': Buffer.alloc(300, 7),
        'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      });
      url = served.url;
    });
    afterAll(() => served.close());

    it('serves the hashed bundles as their build compressed them: variant by Accept-Encoding, ETag, 304, HEAD and ranges', async () => {
      const asset = `${url}/assets/app-Ab12.js`;
      const brotli = await getRaw(asset, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(brotli.status).toBe(200);
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.headers.vary).toContain('Accept-Encoding');
      expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotli.headers['x-content-type-options']).toBe('nosniff');
      expect(brotli.headers['content-type']).toMatch(/javascript/);
      expect(brotliDecompressSync(brotli.body).equals(BUNDLE)).toBe(true);
      expect((await getRaw(asset, { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
      const plain = await getRaw(asset, { 'accept-encoding': 'br;q=0, gzip;q=0' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(BUNDLE)).toBe(true);

      const etag = String(brotli.headers.etag);
      expect(etag).toMatch(/^"[\w-]{22}"$/);
      expect(plain.headers.etag).not.toBe(etag);
      for (const ifNoneMatch of [etag, `W/${etag}`, `"x", ${etag}`, '*']) {
        const res = await getRaw(asset, { 'accept-encoding': 'br', 'if-none-match': ifNoneMatch });
        expect(res.status, ifNoneMatch).toBe(304);
        expect(res.body.length).toBe(0);
      }
      const head = await getRaw(asset, { 'accept-encoding': 'br' }, 'HEAD');
      expect(head.headers['content-length']).toBe(String(brotli.body.length));
      expect(head.body.length).toBe(0);

      const part = await getRaw(asset, { range: 'bytes=5-14' });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 5-14/${BUNDLE.length}`);
      expect(part.body.equals(BUNDLE.subarray(5, 15))).toBe(true);
      expect((await getRaw(asset, { range: `bytes=${BUNDLE.length}-` })).status).toBe(416);

      // Files without variants go as they are; a variant's own name, a climb out or a missing file is the 404 page.
      const image = await getRaw(`${url}/assets/logo-Cd34.png`, { 'accept-encoding': 'br' });
      expect(image.headers['content-encoding']).toBeUndefined();
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.body.length).toBe(300);
      expect((await getRaw(`${url}/favicon.svg`)).headers['cache-control']).toBe('public, max-age=86400');
      for (const p of ['/assets/app-Ab12.js.br', '/assets/..%2Findex.html', '/assets/missing-1.js', '/assets/.hidden']) {
        expect((await getRaw(`${url}${p}`)).status, p).toBe(404);
      }
    });

    it('answers 200 with the app at its pages (trailing slash too) and the real 404 elsewhere', async () => {
      for (const [p, status] of [
        ['/sign-in?mode=sign-up&returnTo=%2F', 200],
        ['/account/', 200],
        ['/reset-password?token=x', 200],
        ['/verify-email?token=x', 200],
        ['/billing?checkout=success&session_id=cs_test_1', 200],
        ['/nope', 404],
        ['/billing/x', 404],
      ] as const) {
        const res = await fetch(`${url}${p}`);
        expect(res.status, p).toBe(status);
        expect(res.headers.get('content-security-policy')).toBe("default-src 'self'");
        expect(await res.text()).toContain('id="root"');
      }
    });
  });

  describe('prerendered public pages', () => {
    let served: Awaited<ReturnType<typeof serveDashboardBuild>>;
    let url = '';

    beforeAll(async () => {
      served = await serveDashboardBuild({
        'index.html': '<!doctype html><div id="root"><h1>Landing</h1></div>',
        'app.html': '<!doctype html><div id="root"></div>',
        'sign-in.html': '<!doctype html><div id="root" data-shell="sign-in"><h1>Welcome back</h1></div>',
        'pages/index.json': JSON.stringify({ '/faq': 'faq.html', '/blog/agency-delivery': 'blog--agency-delivery.html', '/404': '404.html' }),
        'pages/faq.html': '<link rel="canonical" href="%PUBLIC_URL%/faq" /><h1>FAQ</h1>',
        'pages/blog--agency-delivery.html': '<h1>Agency delivery</h1>',
        'pages/404.html': '<h1>Page not found</h1>',
        'sitemap.xml': '<urlset><url><loc>%PUBLIC_URL%/faq</loc></url></urlset>',
        'robots.txt': 'Sitemap: %PUBLIC_URL%/sitemap.xml',
      });
      url = served.url;
    });
    afterAll(() => served.close());

    it('answers each page with its own HTML, the public origin filled in', async () => {
      const faq = await fetch(`${url}/faq/`);
      expect(faq.status).toBe(200);
      expect(faq.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await faq.text()).toBe('<link rel="canonical" href="https://drop.example/faq" /><h1>FAQ</h1>');
      expect(await (await fetch(`${url}/blog/agency-delivery`)).text()).toContain('Agency delivery');
    });

    it('answers the landing and sign-in pages prerendered, the other app pages with the empty app, anything else with the 404 page', async () => {
      expect(await (await fetch(`${url}/`)).text()).toContain('<h1>Landing</h1>');
      for (const p of ['/sign-in', '/sign-in/', '/sign-in?mode=sign-up']) {
        const signIn = await fetch(`${url}${p}`);
        expect(signIn.status, p).toBe(200);
        expect(await signIn.text(), p).toContain('<h1>Welcome back</h1>');
      }
      const dashboard = await fetch(`${url}/dashboard`);
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toBe('<!doctype html><div id="root"></div>');
      for (const p of ['/nope', '/404', '/faq/more']) {
        const res = await fetch(`${url}${p}`);
        expect(res.status, p).toBe(404);
        expect(await res.text(), p).toBe('<h1>Page not found</h1>');
      }
    });

    it('serves the sitemap and robots.txt with absolute URLs of the public origin', async () => {
      const sitemap = await fetch(`${url}/sitemap.xml`);
      expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(await sitemap.text()).toContain('<loc>https://drop.example/faq</loc>');
      expect(await (await fetch(`${url}/robots.txt`)).text()).toBe('Sitemap: https://drop.example/sitemap.xml');
    });
  });
});
