/**
 * The public route sweep: every page of the route table answers 200 with complete HTML (the main
 * heading in the response itself, before any script runs), a title, a description, an absolute
 * canonical URL (its own, or for an alias the page it repeats) and link-preview tags; the sitemap
 * lists every canonical page and robots.txt points at it;
 * unknown paths answer the real 404 page; the spec's test page is not shipped and its slug is reserved.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { load } from 'cheerio';
import { isValidSlug } from '@dropsite/shared';
import {
  APP_PAGES,
  builtPagePaths,
  DASHBOARD_DIST,
  DEMO_PATHS,
  NOT_FOUND_PAGE,
  publicRoutes,
  REQUIRED_ROUTES,
  DEMO_READY_MS,
  waitForDemoSites,
} from '@dropsite/testkit/dashboard/public-pages';

const ROUTES = publicRoutes();

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(DEMO_READY_MS + 30_000);
  await waitForDemoSites(baseURL ?? '');
});
const UNKNOWN_PATHS = ['/nope-nope', '/faq/x', '/blog/unknown-article', '/blog-unknown', '/backend-data-test'];

/** The 404 page's heading, from the build. */
function notFoundHeading(): string {
  const html = readFileSync(path.join(DASHBOARD_DIST, 'pages/404.html'), 'utf8');
  return load(html)('h1').first().text().trim();
}

async function getHtml(request: APIRequestContext, route: string) {
  const response = await request.get(route, { maxRedirects: 0 });
  return { status: response.status(), type: response.headers()['content-type'] ?? '', $: load(await response.text()) };
}

function expectAbsolute(url: string | undefined, what: string, origin: string): URL {
  expect(url, `${what} is missing`).toBeTruthy();
  const parsed = new URL(url ?? '', 'relative:/');
  expect(parsed.protocol, `${what} (${url}) is not an absolute http(s) URL`).toMatch(/^https?:$/);
  expect(parsed.origin, `${what} (${url}) is not on the public origin`).toBe(origin);
  return parsed;
}

test.describe('every page of the route table is built', () => {
  const served = new Set(ROUTES);
  for (const route of REQUIRED_ROUTES) {
    test(`${route} exists`, async ({ request }) => {
      if (!(APP_PAGES as readonly string[]).includes(route)) {
        expect(served.has(route), `${route} is neither a prerendered page (dashboard/dist/pages/index.json), the landing page nor a demo site`).toBe(true);
      }
      const response = await request.get(route, { maxRedirects: 0 });
      expect(response.status(), `GET ${route}`).toBe(200);
      expect(response.headers()['content-type']).toMatch(/^text\/html/);
    });
  }
});

test.describe('each public page is complete HTML with its link-preview tags', () => {
  for (const route of ROUTES) {
    test(`GET ${route}`, async ({ request, baseURL }) => {
      const origin = new URL(baseURL ?? '').origin;
      const { status, type, $ } = await getHtml(request, route);
      expect(status, `GET ${route}`).toBe(200);
      expect(type).toMatch(/^text\/html/);

      const h1 = $('h1');
      expect(h1.length, `${route}: no <h1> in the HTML response`).toBeGreaterThan(0);
      expect(h1.first().text().trim(), `${route}: empty <h1>`).not.toBe('');
      expect($('head > title').text().trim(), `${route}: <title>`).not.toBe('');
      expect($('meta[name="description"]').attr('content')?.trim(), `${route}: meta description`).toBeTruthy();

      // A page's canonical URL is its own, or, for an alias of the route table (/blog-page, /blog-{id}), the page it repeats.
      const canonical = expectAbsolute($('link[rel="canonical"]').attr('href'), `${route}: <link rel="canonical">`, origin);
      expect(canonical.search + canonical.hash, `${route}: the canonical URL has a query or fragment`).toBe('');
      if (canonical.pathname !== route) {
        expect(ROUTES, `${route}: the canonical URL ${canonical.href} is not a public page`).toContain(canonical.pathname);
        const target = await getHtml(request, canonical.pathname);
        expect(target.status, `${route}: its canonical page ${canonical.pathname}`).toBe(200);
        expect(target.$('link[rel="canonical"]').attr('href'), `${route}: its canonical page ${canonical.pathname} is not canonical itself`).toBe(canonical.href);
      }
      expect($('meta[property="og:title"]').attr('content')?.trim(), `${route}: og:title`).toBeTruthy();
      const image = expectAbsolute($('meta[property="og:image"]').attr('content'), `${route}: og:image`, origin);
      expect($('meta[name="twitter:card"]').attr('content'), `${route}: twitter:card`).toMatch(/^summary(_large_image)?$/);

      const picture = await request.get(image.href);
      expect(picture.status(), `${route}: og:image ${image.href}`).toBe(200);
      expect(picture.headers()['content-type'], `${route}: og:image ${image.href}`).toMatch(/^image\//);
    });
  }
});

test('the sitemap lists every prerendered page that is its own canonical URL, the landing page and the demo sites; robots.txt points at it', async ({ request, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const sitemap = await request.get('/sitemap.xml');
  expect(sitemap.status()).toBe(200);
  expect(sitemap.headers()['content-type']).toMatch(/xml/);
  const $ = load(await sitemap.text(), { xml: true });
  const listed = $('urlset > url > loc')
    .toArray()
    .map((loc) => expectAbsolute($(loc).text().trim(), 'a sitemap <loc>', origin).pathname);

  // An alias of the route table (its canonical URL another page's) is served but not listed: a sitemap names canonical URLs only.
  const canonicalOf = new Map<string, string>();
  for (const route of ['/', ...builtPagePaths().filter((p) => p !== NOT_FOUND_PAGE)]) {
    const { $: page } = await getHtml(request, route);
    canonicalOf.set(route, new URL(page('link[rel="canonical"]').attr('href') ?? route, origin).pathname);
  }
  const canonicalPages = [...canonicalOf].filter(([route, canonical]) => route === canonical).map(([route]) => route);
  const aliases = [...canonicalOf].filter(([route, canonical]) => route !== canonical).map(([route]) => route);
  expect(
    canonicalPages.filter((p) => !listed.includes(p)),
    'pages missing from the sitemap',
  ).toEqual([]);
  expect(
    listed.filter((p) => aliases.includes(p)),
    'aliases listed in the sitemap (their canonical URL is another page)',
  ).toEqual([]);
  // The templates' demo sites are pages of the product too.
  expect(
    DEMO_PATHS.filter((p) => !listed.includes(p)),
    'demo sites missing from the sitemap',
  ).toEqual([]);
  expect(
    listed.filter((p) => !canonicalOf.has(p) && !DEMO_PATHS.includes(p)),
    'sitemap entries that are neither public pages nor demo sites',
  ).toEqual([]);
  expect(listed, 'the sitemap lists the 404 page').not.toContain(NOT_FOUND_PAGE);
  expect(new Set(listed).size, 'the sitemap lists a page twice').toBe(listed.length);

  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
  const sitemapLines = (await robots.text()).split('\n').filter((line) => /^sitemap:/i.test(line.trim()));
  expect(sitemapLines.map((line) => line.replace(/^sitemap:\s*/i, '').trim())).toEqual([`${origin}/sitemap.xml`]);
});

test('unknown paths answer 404 with the 404 page', async ({ request }) => {
  const heading = notFoundHeading();
  expect(heading, 'the built 404 page has no <h1>').not.toBe('');
  for (const route of UNKNOWN_PATHS) {
    const { status, type, $ } = await getHtml(request, route);
    expect.soft(status, `GET ${route}`).toBe(404);
    expect.soft(type, `GET ${route}`).toMatch(/^text\/html/);
    expect.soft($('h1').first().text().trim(), `GET ${route}: the 404 page's heading`).toBe(heading);
    expect.soft($('a[href="/"]').length, `GET ${route}: a way back to the home page`).toBeGreaterThan(0);
  }
});

test('the spec’s /backend-data-test page is not shipped, and its path can never be a site', async ({ request }) => {
  expect(builtPagePaths()).not.toContain('/backend-data-test');
  expect(DEMO_PATHS).not.toContain('/backend-data-test');
  // Links are allocated by the server and checked against the reserved paths: this one is never a slug.
  expect(isValidSlug('backend-data-test')).toBe(false);
  for (const call of ['/api/direct-upload/status/backend-data-test', '/api/sites/backend-data-test/status']) {
    const response = await request.get(call);
    expect(response.status(), `GET ${call}`).toBe(404);
  }
});
