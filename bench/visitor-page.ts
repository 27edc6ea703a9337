/**
 * Visitor page weight: a 30-photo site (camera-size JPEGs through POST /api/upload on the
 * embedded defaults) opened in headless Chromium at 1280x800, measured until the network is
 * idle with no interaction: bytes transferred (HTML, CSS, JS, images; Chrome's own count from
 * the DevTools protocol), and the same with HTML and JavaScript gzipped as a compressing edge
 * would send them (the API itself serves them uncompressed, so we gzip each body here). Also
 * checks that the grid loads thumbnails only and that pictures below the fold are lazy. Islands
 * hydrate on the visitor's first input (site-template's client:interaction), so the script the
 * first pointer move brings (React and the gallery) is reported on its own line.
 * Targets: under 100 KB compressed JS, under 500 KB in all (compressed) before interaction.
 */
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { makeCameraJpeg, printFigures, startEmbeddedApp } from './lib.ts';

process.env.NODE_ENV = 'production';
const PHOTOS = 30;
const VIEWPORT = { width: 1280, height: 800 };
const TARGET_JS_GZIP = 100 * 1024;
const TARGET_TOTAL = 500 * 1024;

const photos = await Promise.all(Array.from({ length: PHOTOS }, (_, i) => makeCameraJpeg(i + 1, 3000, 2000)));

const env = await startEmbeddedApp();
const { base } = env;

const form = new FormData();
form.append('title', 'Thirty frames');
form.append('description', 'A 30-photo delivery, for the page weight benchmark');
form.append('authorName', 'Bench');
for (const [i, bytes] of photos.entries()) form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `DSC_${String(i + 1).padStart(4, '0')}.jpg`);
const published = (await (await fetch(`${base}/api/upload`, { method: 'POST', body: form })).json()) as { slug?: string; error?: string };
if (!published.slug) throw new Error(`upload failed: ${JSON.stringify(published)}`);
for (;;) {
  const reply = await fetch(`${base}/api/sites/${published.slug}/status`);
  if (!reply.ok) throw new Error(`status answered ${reply.status}: ${await reply.text()}`);
  const status = (await reply.json()) as { status: string };
  if (status.status === 'live') break;
  if (status.status === 'failed') throw new Error('build failed');
  await new Promise((resolve) => setTimeout(resolve, 50));
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({ viewport: VIEWPORT });
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send('Network.enable');
await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

interface TRequest {
  url: string;
  type: string;
  transferred: number;
}
const requests = new Map<string, TRequest>();
cdp.on('Network.responseReceived', (event) => {
  requests.set(event.requestId, { url: event.response.url, type: event.type ?? 'Other', transferred: 0 });
});
cdp.on('Network.loadingFinished', (event) => {
  const request = requests.get(event.requestId);
  if (request) request.transferred = event.encodedDataLength;
});
const jsBodies = new Map<string, Buffer>();
let htmlBody: Buffer = Buffer.alloc(0);
page.on('response', async (response) => {
  const type = response.request().resourceType();
  if (type === 'script') jsBodies.set(response.url(), await response.body().catch(() => Buffer.alloc(0)));
  if (type === 'document') htmlBody = await response.body().catch(() => Buffer.alloc(0));
});

// Requests still open, named if the page never goes idle (a request left open is a bug of the page).
const open = new Set<string>();
page.on('request', (request) => open.add(request.url()));
page.on('requestfinished', (request) => open.delete(request.url()));
page.on('requestfailed', (request) => open.delete(request.url()));

const started = performance.now();
await page.goto(`${base}/${published.slug}`, { waitUntil: 'networkidle', timeout: 30_000 }).catch((err: unknown) => {
  throw new Error(`the page never went network-idle; still open: ${[...open].join(', ') || 'none'}`, { cause: err });
});
// Lazy pictures settle: give them a moment, without touching the page (islands wait for the visitor's input).
await page.waitForTimeout(1500);
const loadMs = performance.now() - started;
const gzipOf = (bodies: Iterable<Buffer>) => [...bodies].reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0);
const jsBeforeInput = new Map(jsBodies);
const requestsBeforeInput = [...requests.values()].map((request) => ({ ...request }));

const layout = await page.evaluate(() => {
  const tiles = [...document.querySelectorAll<HTMLImageElement>('.gv-tile img')];
  const fold = window.innerHeight;
  return {
    rendered: tiles.length,
    loaded: tiles.filter((img) => img.complete && img.naturalWidth > 0).length,
    belowFold: tiles.filter((img) => img.getBoundingClientRect().top > fold).length,
    lazyBelowFold: tiles.filter((img) => img.getBoundingClientRect().top > fold && img.loading === 'lazy').length,
  };
});
// The visitor's first input (the pointer moves): the gallery in view hydrates; what that costs, measured apart.
await page.mouse.move(8, 8);
await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length < document.querySelectorAll('astro-island').length, null, { timeout: 15_000 });
await page.waitForLoadState('networkidle');
await page.waitForTimeout(500);
const jsAfterInput = [...jsBodies].filter(([url]) => !jsBeforeInput.has(url)).map(([, body]) => body);
await browser.close();
await env.dispose();

const all = requestsBeforeInput;
const sum = (items: TRequest[]) => items.reduce((n, r) => n + r.transferred, 0);
const byType = (type: string) => all.filter((r) => r.type === type);
const images = byType('Image').filter((r) => !r.url.startsWith('data:'));
const jsRaw = [...jsBeforeInput.values()].reduce((n, b) => n + b.length, 0);
const jsGzip = gzipOf(jsBeforeInput.values());
const total = sum(all);
const htmlGzip = gzipSync(htmlBody, { level: 9 }).length;
// What a compressing edge would send: HTML and JS gzipped, pictures as they are (already compressed).
const totalCompressed = total - sum(byType('Document')) - sum(byType('Script')) + htmlGzip + jsGzip;
const thumbnailsOnly = images.every((r) => /size=300$/.test(r.url));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

printFigures(`Visitor page: ${PHOTOS}-photo site, ${VIEWPORT.width}x${VIEWPORT.height}, before any interaction`, [
  ['requests', String(all.length)],
  ['HTML (transferred / gzip)', `${kb(sum(byType('Document')))} / ${kb(htmlGzip)}`],
  ['CSS files (transferred)', `${kb(sum(byType('Stylesheet')))} (the page's CSS is inline in the HTML)`],
  ['JS (transferred)', `${kb(sum(byType('Script')))} in ${byType('Script').length} files`],
  ['JS (raw / gzip)', `${kb(jsRaw)} / ${kb(jsGzip)}`],
  ['images (transferred)', `${kb(sum(images))} in ${images.length} requests`],
  ['all (transferred, as served)', kb(total)],
  ['all (HTML and JS gzipped)', kb(totalCompressed)],
  ['grid tiles rendered / loaded', `${layout.rendered} / ${layout.loaded}`],
  ['tiles below the fold / lazy', `${layout.belowFold} / ${layout.lazyBelowFold}`],
  ['grid images are thumbnails', thumbnailsOnly ? 'yes (size=300 only)' : 'NO'],
  ['load to network idle', `${(loadMs / 1000).toFixed(2)} s (loopback)`],
  ['JS after the first input (gzip)', `${kb(gzipOf(jsAfterInput))} in ${jsAfterInput.length} files (React and the gallery, when the pointer moves)`],
  ['target', `JS under ${kb(TARGET_JS_GZIP)} gzip, all under ${kb(TARGET_TOTAL)}`],
  ['result', jsGzip < TARGET_JS_GZIP && totalCompressed < TARGET_TOTAL && thumbnailsOnly && layout.lazyBelowFold === layout.belowFold ? 'PASS' : 'MISS'],
]);
