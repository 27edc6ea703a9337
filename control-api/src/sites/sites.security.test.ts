/**
 * Hardening of what a browser runs and keeps: the site's CSP allows only the page's own inline
 * scripts (by hash), the dashboard and the preview cannot be framed by other sites, and a page a
 * cache may store never hands out a visitor cookie.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteHtmlKey } from '@dropsite/shared';
import { loadConfig } from '../config/config.ts';
import { startTestApp, createFakeClock, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, seedSite } from '@dropsite/testkit/control-api/site-fixtures';
import { ASSET_CSP, storedScriptHashes } from './site-csp.ts';
import { SCRIPT_HASHES_METADATA } from '@dropsite/builder';
// The builder's helper that builds the site template once for every test process that renders with it.
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';

const DEFAULTS = loadConfig({});

/** The directive's sources, or undefined when the policy has no such directive. */
function directive(csp: string | null, name: string): string[] | undefined {
  const found = (csp ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name);
  return found?.slice(1);
}

/** SHA-256 CSP sources of every inline script a browser would run. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attrs]) => !/\bsrc\s*=/i.test(attrs!) && !/type\s*=\s*"?application\/(?:ld\+)?json/i.test(attrs!))
    .map(([, , body]) => `'sha256-${createHash('sha256').update(body!, 'utf8').digest('base64')}'`);
}

describe('site pages: CSP by hash, no cookie on cacheable pages', () => {
  let app: TTestApp;
  const clock = createFakeClock();
  let slug = '';

  beforeAll(async () => {
    await ensureTemplateBuilt();
    app = await startTestApp({ clock, config: { rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 10_000, writesPerMinute: 10_000 } } });
    const { body } = await postUpload(app.url, buildUploadForm([{ name: 'a.jpg', type: 'image/jpeg', bytes: await makeJpeg(400, 300) }]));
    slug = String(body.slug);
    await app.deps.queue.whenIdle();
  });
  afterAll(async () => {
    await app.close();
  });

  it('allows the page’s inline scripts by their hashes and no other inline script', async () => {
    const res = await fetch(`${app.url}/${slug}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy');
    const html = await res.text();
    const scriptSrc = directive(csp, 'script-src');
    expect(scriptSrc).toBeDefined();
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    const hashes = inlineScriptHashes(html);
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(scriptSrc).toContain(hash);
    expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
    // The builder stored them with the page's bytes, so the page is sent as stored, not read to hash it.
    const stored = await app.deps.storage.head(siteHtmlKey(slug));
    expect(
      storedScriptHashes(stored?.metadata)
        ?.map((h) => `'${h}'`)
        .sort(),
    ).toEqual([...new Set(hashes)].sort());
  });

  it('hashes a page stored without its script hashes (or with broken ones) when it serves it', async () => {
    const site = await seedSite(app);
    const html = '<!doctype html><title>old</title><script>document.title="ran"</script><script type="application/json">{"a":1}</script>';
    for (const metadata of [undefined, { [SCRIPT_HASHES_METADATA]: 'not-a-hash' }, { [SCRIPT_HASHES_METADATA]: `'unsafe-inline'` }]) {
      await app.deps.storage.put(siteHtmlKey(site.slug), html, { contentType: 'text/html; charset=utf-8', ...(metadata ? { metadata } : {}) });
      const res = await fetch(`${app.url}/${site.slug}`);
      expect(await res.text()).toBe(html);
      expect(directive(res.headers.get('content-security-policy'), 'script-src')).toEqual(["'self'", ...inlineScriptHashes(html)]);
    }
  });

  it('sends its island bundles with nosniff and a CSP of their own', async () => {
    const html = await (await fetch(`${app.url}/${slug}`)).text();
    const asset = /\/_astro\/[\w.-]+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    const res = await fetch(`${app.url}${asset}`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = res.headers.get('content-security-policy');
    expect(directive(csp, 'script-src')).not.toContain("'unsafe-inline'");
    expect(directive(csp, 'script-src')).not.toContain("'unsafe-eval'");
    expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
  });

  it('has the edge send the same headers with the bundles it serves straight from the bucket', async () => {
    const edge = await readFile(path.join(import.meta.dirname, '../../../deploy/edge.conf'), 'utf8');
    const assets = edge.slice(edge.indexOf('location /_astro/'), edge.indexOf('location / '));
    expect(assets).toContain(`add_header Content-Security-Policy "${ASSET_CSP}";`);
    expect(assets).toContain('add_header X-Content-Type-Options "nosniff";');
  });

  it('gives no cookie with a public site page, which a cache may keep; the first API call gets it', async () => {
    const site = await seedSite(app);
    const visitor = createBrowser(app);
    const page = await visitor.fetch(`/${site.slug}`);
    await page.arrayBuffer();
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(page.headers.get('cache-control')).toMatch(/^public\b/);
    expect(page.headers.get('cache-control')).not.toMatch(/no-store|private/);

    const state = await visitor.fetch(`/api/engagement/state?projectId=${site.project.id}`);
    await state.arrayBuffer();
    expect(state.status).toBe(200);
    expect(state.headers.get('cache-control')).toMatch(/no-store/);
    expect(visitor.cookies.get('dropsite_vid')).toMatch(/^[\w-]{22}\./);
  });

  it('keeps locked and expired pages private and no-store, without a cookie', async () => {
    const locked = await seedSite(app, { password: 'correct horse' });
    const expired = await seedSite(app, { expiresAt: clock.now() - 1000 });
    for (const [site, status] of [
      [locked, 401],
      [expired, 410],
    ] as const) {
      const res = await fetch(`${app.url}/${site.slug}`);
      await res.arrayBuffer();
      expect(res.status).toBe(status);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });
});

describe('dashboard and wizard preview: framing and CSP', () => {
  let app: TTestApp;
  let dashboardDir = '';

  beforeAll(async () => {
    await ensureTemplateBuilt();
    dashboardDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-dashboard-'));
    await mkdir(path.join(dashboardDir, 'assets'));
    await writeFile(path.join(dashboardDir, 'index.html'), '<!doctype html><title>Dropsite</title><script type="module" src="/assets/app-1.js"></script>');
    await writeFile(path.join(dashboardDir, 'assets', 'app-1.js'), 'console.log(1)');
    app = await startTestApp({ startWorker: false, config: { dashboardDir } });
  });
  afterAll(async () => {
    await app.close();
    await rm(dashboardDir, { recursive: true, force: true });
  });

  it('forbids framing the dashboard and runs only its own scripts', async () => {
    for (const p of ['/', '/no/such-page']) {
      const res = await fetch(`${app.url}${p}`);
      await res.arrayBuffer();
      const csp = res.headers.get('content-security-policy');
      expect(directive(csp, 'frame-ancestors'), p).toEqual(["'none'"]);
      expect(directive(csp, 'script-src'), p).toEqual(["'self'"]);
      expect(directive(csp, 'object-src'), p).toEqual(["'none'"]);
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
    }
  });

  it('tells no other origin the address of a dashboard page, whose links carry tokens (/reset-password?token=)', async () => {
    for (const p of ['/', '/reset-password?token=secret-reset-token', '/sign-in', '/no/such-page']) {
      const res = await fetch(`${app.url}${p}`);
      await res.arrayBuffer();
      expect(res.headers.get('referrer-policy'), p).toBe('same-origin');
    }
  });

  it('sends the dashboard’s assets with nosniff', async () => {
    const res = await fetch(`${app.url}/assets/app-1.js`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends the preview with the site CSP for its own inline scripts', async () => {
    const res = await fetch(`${app.url}/api/preview`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Draft', files: [{ clientId: 'f1', name: 'a.jpg', type: 'image/jpeg', size: 1000, width: 10, height: 10 }] }),
    });
    const html = await res.text();
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy');
    const scriptSrc = directive(csp, 'script-src');
    expect(scriptSrc).toBeDefined();
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    for (const hash of inlineScriptHashes(html)) expect(scriptSrc).toContain(hash);
    expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
  });

  it('serves the preview frame sandboxed, framed only by the dashboard, with only the hashes it is given', async () => {
    const hash = `sha256-${createHash('sha256').update('x').digest('base64')}`;
    const res = await fetch(`${app.url}/api/preview/frame?script=${encodeURIComponent(hash)}`);
    const html = await res.text();
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy');
    expect(directive(csp, 'sandbox')).toEqual(['allow-scripts', 'allow-downloads']);
    expect(directive(csp, 'frame-ancestors')).toEqual(["'self'"]);
    const scriptSrc = directive(csp, 'script-src')!;
    expect(scriptSrc).toContain(`'${hash}'`);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    for (const own of inlineScriptHashes(html)) expect(scriptSrc).toContain(own);
    // Anything but a hash is refused, so no source can be smuggled into the policy.
    const bad = await fetch(`${app.url}/api/preview/frame?script=${encodeURIComponent("'unsafe-inline'")}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ success: false, code: 'validation_failed' });
  });
});
