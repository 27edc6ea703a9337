import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, createFakeClock, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';

interface TRawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request as a client sends it (fetch would ask for compression and decode it on its own). */
async function getRaw(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<TRawResponse> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

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

  it('sends the HTML and the shared assets compressed at build time to clients that accept it, and plain to those that do not', async () => {
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    const plain = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const brotli = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toContain('Accept-Encoding');
    expect(brotli.body.length).toBeLessThan(plain.body.length / 2);
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    const zipped = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    const asset = /\/_astro\/[\w.-]+\.js/.exec(plain.body.toString())?.[0];
    expect(asset).toBeDefined();
    const js = await getRaw(app.url, asset!, { 'accept-encoding': 'gzip' });
    expect(js.headers['content-encoding']).toBe('gzip');
    const jsPlain = await getRaw(app.url, asset!, { 'accept-encoding': 'identity' });
    expect(gunzipSync(js.body).equals(jsPlain.body)).toBe(true);
  });

  it('answers the variant the client accepts by its q-values, br before gzip at equal weight, and identity when it refuses both', async () => {
    const cases: [string, string | undefined][] = [
      ['br, gzip', 'br'],
      ['gzip, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['BR;Q=0.8, *;q=0.1', 'br'],
      ['*', 'br'],
      ['x-gzip', 'gzip'],
      ['gzip;q=0, br;q=0', undefined],
      ['*;q=0', undefined],
      ['identity', undefined],
      ['', undefined],
    ];
    for (const [accept, expected] of cases) {
      const res = await getRaw(app.url, `/${slug}`, { 'accept-encoding': accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(expected);
      expect(res.headers['content-length'], accept).toBe(String(res.body.length));
    }
    // Without the header at all: identity.
    expect((await getRaw(app.url, `/${slug}`)).headers['content-encoding']).toBeUndefined();
  });

  it('validates the page with a strong ETag per variant and answers 304 to If-None-Match: exact, weak, in a list or *', async () => {
    const first = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const gzipTag = String((await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip' })).headers.etag);
    const plainTag = String((await getRaw(app.url, `/${slug}`)).headers.etag);
    expect(new Set([etag, gzipTag, plainTag]).size).toBe(3);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'br', 'if-none-match': ifNoneMatch });
      expect(res.status, ifNoneMatch).toBe(304);
      expect(res.body.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers.vary).toContain('Accept-Encoding');
      expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      // The browser keeps the page's own policy: a 304 must not replace it with one that allows no script.
      expect(res.headers['content-security-policy']).toBeUndefined();
    }
    // fetch() sends Cache-Control: no-cache with a conditional request; the origin still answers 304.
    const viaFetch = await fetch(`${app.url}/${slug}`, { headers: { 'if-none-match': [etag, gzipTag, plainTag].join(', ') } });
    expect(viaFetch.status).toBe(304);
    // Another representation's tag, or another page's, is no match.
    for (const ifNoneMatch of [gzipTag, '"nope"']) {
      const res = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'br', 'if-none-match': ifNoneMatch });
      expect(res.status, ifNoneMatch).toBe(200);
      expect(res.body.equals(first.body)).toBe(true);
    }
  });

  it('answers HEAD with the headers of the variant and no body', async () => {
    const full = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip, br' });
    const head = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip, br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(full.body.length));
    expect(head.headers.etag).toBe(full.headers.etag);
    expect(head.headers['content-security-policy']).toBe(full.headers['content-security-policy']);
    const notModified = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'br', 'if-none-match': String(full.headers.etag) }, 'HEAD');
    expect(notModified.status).toBe(304);
  });

  it('sets no cookie on a page any cache may keep', async () => {
    const { CREATOR_SESSION_COOKIE, VISITOR_COOKIE, cookieName } = await import('../access/cookies.ts');
    const forged = `${cookieName(app.deps.config, VISITOR_COOKIE)}=forged; ${cookieName(app.deps.config, CREATOR_SESSION_COOKIE)}=forged`;
    for (const cookie of [undefined, forged]) {
      const res = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'br', ...(cookie ? { cookie } : {}) });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toContain('public');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('serves the variants there are: the next acceptable one when one is missing, identity without any', async () => {
    const { siteHtmlVariantKey } = await import('@dropsite/shared');
    await app.deps.storage.delete(siteHtmlVariantKey(slug, 'br'));
    expect((await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'br, gzip' })).headers['content-encoding']).toBe('gzip');
    await app.deps.storage.delete(siteHtmlVariantKey(slug, 'gzip'));
    const plain = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'br, gzip' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain('<html');
    // A rebuild writes them again.
    const { rebuildSites } = await import('../builds/rebuild.ts');
    const site = await app.deps.db.selectFrom('projects').select('id').executeTakeFirstOrThrow();
    await rebuildSites(app.deps, [site.id], () => {}, 10);
    expect((await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'br, gzip' })).headers['content-encoding']).toBe('br');
  });

  it('serves a page built before variants and tags existed as it is, uncompressed and without an ETag, until its next build', async () => {
    const { siteHtmlKey, siteHtmlVariantKey } = await import('@dropsite/shared');
    const html = (await getRaw(app.url, `/${slug}`)).body;
    for (const coding of ['br', 'gzip'] as const) await app.deps.storage.delete(siteHtmlVariantKey(slug, coding));
    await app.deps.storage.put(siteHtmlKey(slug), html, { contentType: 'text/html; charset=utf-8' });
    const old = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip, br', 'if-none-match': '"anything"' });
    expect(old.status).toBe(200);
    expect(old.headers['content-encoding']).toBeUndefined();
    expect(old.headers.etag).toBeUndefined();
    expect(old.body.equals(html)).toBe(true);
    // Its inline scripts are hashed from the HTML itself, as before.
    expect(old.headers['content-security-policy']).toMatch(/'sha256-/);
    const { rebuildSites } = await import('../builds/rebuild.ts');
    const site = await app.deps.db.selectFrom('projects').select('id').executeTakeFirstOrThrow();
    await rebuildSites(app.deps, [site.id], () => {}, 10);
    const rebuilt = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip, br' });
    expect(rebuilt.headers['content-encoding']).toBe('br');
    expect(rebuilt.headers.etag).toBeDefined();
  });

  it('serves a shared asset by variant with its ETag, 304, HEAD and byte ranges', async () => {
    const { brotliDecompressSync } = await import('node:zlib');
    const page = await getRaw(app.url, `/${slug}`);
    const asset = /\/_astro\/[\w.-]+\.js/.exec(page.body.toString())?.[0] ?? '';
    const plain = await getRaw(app.url, asset);
    expect(plain.headers['accept-ranges']).toBe('bytes');
    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect((await getRaw(app.url, asset, { 'if-none-match': `W/${etag}` })).status).toBe(304);
    const brotli = await getRaw(app.url, asset, { 'accept-encoding': 'br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    const head = await getRaw(app.url, asset, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-length']).toBe(String(brotli.body.length));
    expect(head.body.length).toBe(0);

    const part = await getRaw(app.url, asset, { range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${plain.body.length}`);
    expect(part.body.equals(plain.body.subarray(0, 10))).toBe(true);
    const tail = await getRaw(app.url, asset, { range: 'bytes=-5', 'accept-encoding': 'br' });
    expect(tail.status).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes ${brotli.body.length - 5}-${brotli.body.length - 1}/${brotli.body.length}`);
    expect(tail.body.equals(brotli.body.subarray(-5))).toBe(true);
    expect((await getRaw(app.url, asset, { range: 'bytes=0-9', 'if-range': '"stale"' })).status).toBe(200);
    expect((await getRaw(app.url, asset, { range: 'bytes=0-9', 'if-range': etag })).status).toBe(206);
    const beyond = await getRaw(app.url, asset, { range: `bytes=${plain.body.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${plain.body.length}`);
    // A variant is sent for its bundle, never by its own name.
    expect((await getRaw(app.url, `${asset}.br`)).status).toBe(404);
  });

  it('gives a rebuilt page with other content a new ETag', async () => {
    const before = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'br' });
    const site = await app.deps.db.selectFrom('projects').select(['id', 'title']).executeTakeFirstOrThrow();
    await app.deps.db
      .updateTable('projects')
      .set({ title: `${site.title} (revised)` })
      .where('id', '=', site.id)
      .execute();
    const { rebuildSites } = await import('../builds/rebuild.ts');
    await rebuildSites(app.deps, [site.id], () => {}, 10);
    const after = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'br', 'if-none-match': String(before.headers.etag) });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await getRaw(app.url, `/${slug}`)).body.toString()).toContain('(revised)');
    await app.deps.db.updateTable('projects').set({ title: site.title }).where('id', '=', site.id).execute();
    await rebuildSites(app.deps, [site.id], () => {}, 10);
  });

  it('answers the same 404 page for unknown, reserved and malformed slugs', async () => {
    for (const path of ['/zzzzzzzzzz', '/ABCDEFGHJK', '/abcdefgh%2F..%2Fx', '/abcdefgh%00']) {
      const res = await fetch(`${app.url}${path}`);
      expect(res.status, path).toBe(404);
      await res.text();
    }
  });

  it('answers 410 with a clear page at the instant of expiry', async () => {
    const site = await app.deps.db.selectFrom('projects').select('id').executeTakeFirstOrThrow();
    await app.deps.db.updateTable('projects').set({ expires_at: clock.now() }).where('id', '=', site.id).execute();
    const res = await fetch(`${app.url}/${slug}`);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('This site has expired');
    await app.deps.db.updateTable('projects').set({ expires_at: null }).where('id', '=', site.id).execute();
  });

  it('names the expired site, who shared it and their address, but nothing of a password-protected one', async () => {
    const site = await app.deps.db.selectFrom('projects').select(['id', 'title', 'author_name', 'contact_info']).executeTakeFirstOrThrow();
    const contact = JSON.stringify({ ...JSON.parse(site.contact_info), email: 'mara@studio.example' });
    await app.deps.db
      .updateTable('projects')
      .set({ expires_at: clock.now(), title: 'Autumn <Wedding>', author_name: 'Mara Lind', contact_info: contact })
      .where('id', '=', site.id)
      .execute();
    try {
      const res = await fetch(`${app.url}/${slug}`);
      expect(res.status).toBe(410);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const html = await res.text();
      expect(html).toContain('Autumn &lt;Wedding&gt;');
      expect(html).toContain('ask <strong>Mara Lind</strong> at <a href="mailto:mara@studio.example">');
      expect(html).toContain('prefers-color-scheme:dark');

      await app.deps.db.updateTable('projects').set({ password_hash: 'protected-for-this-test' }).where('id', '=', site.id).execute();
      const locked = await (await fetch(`${app.url}/${slug}`)).text();
      expect(locked).toContain('This site has expired');
      expect(locked).not.toContain('Autumn');
      expect(locked).not.toContain('Mara Lind');
      expect(locked).not.toContain('mara@studio.example');
      expect(locked).toContain('ask the person who sent it to you for a new link');
    } finally {
      await app.deps.db
        .updateTable('projects')
        .set({ expires_at: null, password_hash: null, title: site.title, author_name: site.author_name, contact_info: site.contact_info })
        .where('id', '=', site.id)
        .execute();
    }
  });

  it('says a deleted site was removed (410), with its title while its record is kept and nothing once it is gone', async () => {
    const site = await app.deps.db.selectFrom('projects').select(['id', 'title']).executeTakeFirstOrThrow();
    await app.deps.db.updateTable('projects').set({ deleted_at: clock.now() }).where('id', '=', site.id).execute();
    try {
      const res = await fetch(`${app.url}/${slug}`);
      expect(res.status).toBe(410);
      const html = await res.text();
      expect(html).toContain('This site was removed');
      expect(html).toContain(site.title);
      // Its files answer like unknown ones.
      const file = await app.deps.db.selectFrom('files').select('id').where('project_id', '=', site.id).executeTakeFirstOrThrow();
      expect((await fetch(`${app.url}/api/files/${file.id}?mode=download`)).status).toBe(404);
    } finally {
      await app.deps.db.updateTable('projects').set({ deleted_at: null }).where('id', '=', site.id).execute();
    }
    // Only the reason is left of a removed record: the link still says what became of it.
    for (const [gone, reason, heading, status] of [
      ['gonesite01', 'removed', 'This site was removed', 410],
      ['gonesite02', 'expired', 'This site has expired', 410],
      ['gonesite03', 'taken-down', 'This site is unavailable', 451],
    ] as const) {
      await app.deps.db.insertInto('removed_sites').values({ slug: gone, reason, removed_at: clock.now() }).execute();
      const res = await fetch(`${app.url}/${gone}`);
      expect(res.status, gone).toBe(status);
      const html = await res.text();
      expect(html).toContain(heading);
      expect(html).toContain(status === 410 ? 'ask the person who sent it to you' : 'contact us');
    }
  });

  it("answers a demo's address with a page that retries by itself until the demo is built, never 404", async () => {
    const config = app.deps.config as { demoSites: boolean };
    const was = config.demoSites;
    try {
      config.demoSites = true;
      const res = await fetch(`${app.url}/photo-gallery`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const html = await res.text();
      expect(html).toContain('This demo is being prepared');
      expect(html).toContain('Photo Gallery template');
      expect(html).toContain('<meta http-equiv="refresh" content="5">');
      // Without demo sites (DEMO_SITES=false) there is nothing to wait for.
      config.demoSites = false;
      const off = await fetch(`${app.url}/photo-gallery`);
      expect(off.status).toBe(404);
      await off.text();
    } finally {
      config.demoSites = was;
    }
  });

  it('rebuilds to the same HTML, swapping it in one write', async () => {
    const before = await (await fetch(`${app.url}/${slug}`)).text();
    const { rebuildSites } = await import('../builds/rebuild.ts');
    const site = await app.deps.db.selectFrom('projects').select('id').executeTakeFirstOrThrow();
    const result = await rebuildSites(app.deps, [site.id], () => {}, 10);
    expect(result).toMatchObject({ total: 1, done: 1, failed: 0 });
    const after = await (await fetch(`${app.url}/${slug}`)).text();
    expect(after).toBe(before);
  });

  it('answers a page viewed again from memory, and reads storage again once the site changed', async () => {
    const storage = app.deps.storage;
    const reads: string[] = [];
    const { get, head } = storage;
    storage.get = (key, range) => {
      reads.push(key);
      return get(key, range);
    };
    storage.head = (key) => {
      reads.push(key);
      return head(key);
    };
    try {
      const pageReads = () => reads.filter((key) => key.startsWith(`sites/${slug}/index.html`)).length;
      const first = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip' });
      expect(first.status).toBe(200);
      const afterFirst = pageReads();
      const again = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip' });
      const notModified = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) });
      // The same bytes, tag and policy, and a 304, without opening the stored page again.
      expect(again.body.equals(first.body)).toBe(true);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
      expect(notModified.status).toBe(304);
      expect(pageReads()).toBe(afterFirst);

      // Another site's page written (a publish) leaves this one in memory; a write in its own folder does not.
      await storage.put('sites/another-site/index.html', '<p>another</p>');
      await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip' });
      expect(pageReads()).toBe(afterFirst);
      await storage.put(`sites/${slug}/og.png.json`, '{}');
      const afterOwnWrite = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip' });
      expect(afterOwnWrite.body.equals(first.body)).toBe(true);
      expect(pageReads()).toBeGreaterThan(afterFirst);
      const readsNow = pageReads();

      // A rebuild (its page written, then the site marked live again) is read from storage at the next view.
      const { rebuildSites } = await import('../builds/rebuild.ts');
      const site = await app.deps.db.selectFrom('projects').select('id').executeTakeFirstOrThrow();
      await rebuildSites(app.deps, [site.id], () => {}, 10);
      const rebuilt = await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip' });
      expect(rebuilt.status).toBe(200);
      expect(pageReads()).toBeGreaterThan(readsNow);

      // A password set a moment ago locks the page at the next view, memory or not.
      await app.deps.db.updateTable('projects').set({ password_hash: 'locked-for-this-test' }).where('id', '=', site.id).execute();
      expect((await getRaw(app.url, `/${slug}`, { 'accept-encoding': 'gzip' })).status).toBe(401);
      await app.deps.db.updateTable('projects').set({ password_hash: null }).where('id', '=', site.id).execute();
    } finally {
      storage.get = get;
      storage.head = head;
    }
  });
});
