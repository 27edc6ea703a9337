/**
 * Public pages' weight and first paint: every public route (the landing page, each prerendered page
 * of dashboard/dist/pages/index.json and the templates' demo sites) opened in headless Chromium at
 * 1280x800 with the cache off, measured until `load` and network idle, with no interaction: the
 * bytes of every request split into HTML, CSS, JS and the rest (HTML, CSS and JS gzipped at level 6
 * as a compressing edge would send them; what the server already compressed is counted as sent),
 * the time to first contentful paint (median of BENCH_RUNS loads), and whether the page's <h1> is in
 * the HTML response itself (readable before any script runs). A demo site's islands hydrate on the
 * visitor's first input (site-template's client:interaction), so a demo measured here loads no island
 * code and no React, whatever its first screen shows.
 *
 * Targets: no page over 120 KB of compressed JS (the landing page with its upload wizard included);
 * content pages (every route but /) under 60 KB; every page's <h1> in its HTML response.
 *
 * Usage: node bench/public-pages.ts   (BENCH_RUNS=3; DASHBOARD_DIR=… to measure another build)
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { publicRoutes } from '@dropsite/testkit/dashboard/public-pages';
import { seedDemoSites } from '@dropsite/scripts/demo/seed';
import { median, startEmbeddedApp } from './lib.ts';

process.env.NODE_ENV = 'production';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const VIEWPORT = { width: 1280, height: 800 };
const KB = 1024;
const TARGET_JS_ANY = 120 * KB;
const TARGET_JS_CONTENT = 60 * KB;

type TKind = 'html' | 'css' | 'js' | 'other';
interface TLoad {
  status: number;
  bytes: Record<TKind, number>;
  requests: number;
  fcpMs: number | null;
  h1InHtml: boolean;
}

const kindOf = (type: string): TKind => (type === 'Document' ? 'html' : type === 'Stylesheet' ? 'css' : type === 'Script' ? 'js' : 'other');

/** The first <h1> of the HTML as sent, with text in it. */
function hasHeading(html: string): boolean {
  const match = /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html);
  return !!match && (match[1] ?? '').replace(/<[^>]*>/g, '').trim() !== '';
}

async function measure(browser: Browser, url: string): Promise<TLoad> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

  const seen = new Map<string, { kind: TKind; encoded: boolean }>();
  const bytes: Record<TKind, number> = { html: 0, css: 0, js: 0, other: 0 };
  let documentHtml = '';
  const pending: Promise<void>[] = [];
  cdp.on('Network.responseReceived', (event) => {
    const encoding = Object.entries(event.response.headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
    seen.set(event.requestId, { kind: kindOf(event.type ?? 'Other'), encoded: !!encoding && encoding !== 'identity' });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = seen.get(event.requestId);
    if (!request) return;
    // Sent compressed (the sites are): counted as sent. Else gzipped here, as a compressing edge would send it.
    const asSent = request.kind === 'other' || request.encoded;
    if (asSent) bytes[request.kind] += event.encodedDataLength;
    if (asSent && !(request.kind === 'html' && !documentHtml)) return;
    pending.push(
      cdp.send('Network.getResponseBody', { requestId: event.requestId }).then(
        ({ body, base64Encoded }) => {
          const raw = Buffer.from(body, base64Encoded ? 'base64' : 'utf8');
          if (!asSent) bytes[request.kind] += gzipSync(raw, { level: 6 }).length;
          if (request.kind === 'html' && !documentHtml) documentHtml = raw.toString('utf8');
        },
        () => undefined,
      ),
    );
  });

  const response = await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  const fcpMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
  await Promise.all(pending);
  await context.close();
  return { status: response?.status() ?? 0, bytes, requests: seen.size, fcpMs, h1InHtml: hasHeading(documentHtml) };
}

const routes = publicRoutes();
const env = await startEmbeddedApp();
// The demo sites, built as the API's start-up seed builds them (the embedded runtime does not run that seed).
const seeded = await seedDemoSites(env.runtime.deps);
if (seeded.failed.length > 0) process.stdout.write(`demo sites that failed to build: ${seeded.failed.join(', ')}\n`);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

const results: Array<{ route: string; first: TLoad; fcp: number | null }> = [];
try {
  for (const route of routes) {
    const loads: TLoad[] = [];
    for (let run = 0; run < RUNS; run++) loads.push(await measure(browser, `${env.base}${route}`));
    const first = loads[0] as TLoad;
    const paints = loads.map((l) => l.fcpMs).filter((ms): ms is number => ms !== null);
    results.push({ route, first, fcp: paints.length ? median(paints) : null });
  }
} finally {
  await browser.close();
  await env.dispose();
}

const kb = (n: number) => `${(n / KB).toFixed(1)}`;
const header = ['route', 'status', 'HTML KB', 'CSS KB', 'JS KB', 'other KB', 'requests', 'FCP ms', 'h1 in HTML'];
const rows = results.map(({ route, first, fcp }) => [
  route,
  String(first.status),
  kb(first.bytes.html),
  kb(first.bytes.css),
  kb(first.bytes.js),
  kb(first.bytes.other),
  String(first.requests),
  fcp === null ? '—' : fcp.toFixed(0),
  first.h1InHtml ? 'yes' : 'NO',
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
const title = `Public pages: ${routes.length} routes, ${VIEWPORT.width}x${VIEWPORT.height}, before any interaction (HTML, CSS, JS gzipped at level 6; FCP median of ${RUNS})`;
process.stdout.write(`\n${title}\n${'-'.repeat(title.length)}\n${line(header)}\n${rows.map(line).join('\n')}\n\n`);

const verdict = (name: string, offenders: string[]) =>
  process.stdout.write(`${offenders.length === 0 ? 'PASS' : 'FAIL'}  ${name}${offenders.length ? `: ${offenders.join(', ')}` : ''}\n`);
verdict(
  'every route answers 200',
  results.filter((r) => r.first.status !== 200).map((r) => `${r.route} (${r.first.status})`),
);
verdict(
  `no page over ${kb(TARGET_JS_ANY)} KB of compressed JS`,
  results.filter((r) => r.first.bytes.js > TARGET_JS_ANY).map((r) => `${r.route} (${kb(r.first.bytes.js)} KB)`),
);
verdict(
  `content pages (all but /) under ${kb(TARGET_JS_CONTENT)} KB of compressed JS`,
  results.filter((r) => r.route !== '/' && r.first.bytes.js >= TARGET_JS_CONTENT).map((r) => `${r.route} (${kb(r.first.bytes.js)} KB)`),
);
verdict(
  "every page's <h1> in its HTML response",
  results.filter((r) => !r.first.h1InHtml).map((r) => r.route),
);
