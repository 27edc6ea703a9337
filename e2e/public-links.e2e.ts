/**
 * The public site's link crawl: from the landing page (as served, and once hydrated in the
 * browser) and every public route, every same-origin link, stylesheet, script, picture, source
 * and CSS url() is fetched with GET, breadth first, and must not answer 4xx or 5xx; a link to
 * `#id` must find that id on its page. External links, mailto: and tel: are skipped; the API is
 * only ever asked with GET (its POST endpoints are never crawled). Bounded to MAX_URLS fetches.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { load, type CheerioAPI } from 'cheerio';
import { publicRoutes, DEMO_READY_MS, waitForDemoSites } from '@dropsite/testkit/dashboard/public-pages';

const MAX_URLS = 400;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(DEMO_READY_MS + 30_000);
  await waitForDemoSites(baseURL ?? '');
});
/** Pages whose links are read although the page itself answers 404 on purpose. */
const EXPECTED_404_PAGES = ['/nope-nope'];

interface TFound {
  /** The URL as fetched (absolute, without its fragment). */
  url: string;
  /** The page or stylesheet it was found on, and how it was referenced. */
  from: string;
  how: string;
}

/** `url(...)` and `@import "..."` references of a stylesheet. */
function cssUrls(css: string): string[] {
  const urls = [...css.matchAll(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g)].map((m) => m[2] ?? '');
  const imports = [...css.matchAll(/@import\s+(['"])([^'"]+)\1/g)].map((m) => m[2] ?? '');
  return [...urls, ...imports].filter(Boolean);
}

function srcsetUrls(srcset: string): string[] {
  return srcset
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter(Boolean);
}

/** Every reference of an HTML document, with the tag that made it. */
function htmlReferences($: CheerioAPI): Array<{ ref: string; how: string }> {
  const refs: Array<{ ref: string; how: string }> = [];
  const add = (selector: string, attr: string, how: string, split = false) => {
    $(selector).each((_, el) => {
      const value = $(el).attr(attr);
      if (!value) return;
      for (const ref of split ? srcsetUrls(value) : [value]) refs.push({ ref, how });
    });
  };
  add('a[href]', 'href', '<a href>');
  add('link[href]', 'href', '<link href>');
  add('script[src]', 'src', '<script src>');
  add('img[src]', 'src', '<img src>');
  add('img[srcset]', 'srcset', '<img srcset>', true);
  add('source[src]', 'src', '<source src>');
  add('source[srcset]', 'srcset', '<source srcset>', true);
  add('video[poster]', 'poster', '<video poster>');
  add('meta[property="og:image"]', 'content', 'og:image');
  $('style').each((_, el) => {
    for (const ref of cssUrls($(el).text())) refs.push({ ref, how: '<style> url()' });
  });
  $('[style]').each((_, el) => {
    for (const ref of cssUrls($(el).attr('style') ?? '')) refs.push({ ref, how: 'style="url()"' });
  });
  return refs;
}

function idsOf($: CheerioAPI): Set<string> {
  const ids = new Set<string>();
  $('[id]').each((_, el) => void ids.add($(el).attr('id') ?? ''));
  $('a[name]').each((_, el) => void ids.add($(el).attr('name') ?? ''));
  return ids;
}

test('every link, asset and in-page anchor of the public site answers', async ({ page, request, baseURL }) => {
  test.setTimeout(180_000);
  const origin = new URL(baseURL ?? '').origin;
  const queue: TFound[] = [];
  const seen = new Set<string>();
  const broken: string[] = [];
  /** Anchors to check once every page is read: page URL → fragments wanted there, with where each was found. */
  const anchors = new Map<string, Array<{ id: string; from: string }>>();
  /** The ids of every HTML page read, by URL. */
  const pageIds = new Map<string, Set<string>>();
  let skippedOverBound = 0;

  const enqueue = (ref: string, from: string, how: string) => {
    const trimmed = ref.trim();
    if (!trimmed || /^(mailto|tel|javascript|data|blob|sms):/i.test(trimmed)) return;
    let url: URL;
    try {
      url = new URL(trimmed, from);
    } catch {
      broken.push(`unparsable ${how} "${ref}" on ${from}`);
      return;
    }
    if (url.origin !== origin) return;
    if (url.hash.length > 1) {
      const target = `${url.origin}${url.pathname}${url.search}`;
      const list = anchors.get(target) ?? [];
      list.push({ id: decodeURIComponent(url.hash.slice(1)), from: `${from} (${how} ${ref})` });
      anchors.set(target, list);
    }
    url.hash = '';
    if (seen.has(url.href)) return;
    if (seen.size >= MAX_URLS) {
      skippedOverBound++;
      return;
    }
    seen.add(url.href);
    queue.push({ url: url.href, from, how });
  };

  const read = (html: string, pageUrl: string) => {
    const $ = load(html);
    pageIds.set(pageUrl, idsOf($));
    for (const { ref, how } of htmlReferences($)) enqueue(ref, pageUrl, how);
  };

  // The hydrated landing page: the links the app renders once it runs.
  await page.goto('/', { waitUntil: 'networkidle' });
  const hydrated = await page.evaluate(() => {
    const refs: Array<{ ref: string; how: string }> = [];
    for (const a of document.querySelectorAll('a[href]')) refs.push({ ref: a.getAttribute('href') ?? '', how: '<a href> (hydrated)' });
    for (const el of document.querySelectorAll('img[src], script[src], source[src]')) refs.push({ ref: el.getAttribute('src') ?? '', how: `<${el.localName} src> (hydrated)` });
    for (const el of document.querySelectorAll('link[href]')) refs.push({ ref: el.getAttribute('href') ?? '', how: '<link href> (hydrated)' });
    return { refs, ids: [...document.querySelectorAll('[id]')].map((el) => el.id) };
  });
  const landing = `${origin}/`;
  for (const { ref, how } of hydrated.refs) enqueue(ref, landing, how);
  const hydratedIds = new Set(hydrated.ids);

  // Pages read for their links although they answer 404 by design.
  for (const route of EXPECTED_404_PAGES) {
    const response = await request.get(route);
    expect(response.status(), `GET ${route}`).toBe(404);
    seen.add(`${origin}${route}`); // read here; its own address (its skip link's) is not a broken link
    read(await response.text(), `${origin}${route}`);
  }

  enqueue('/', landing, 'start');
  for (const route of publicRoutes()) enqueue(route, landing, 'route table');

  const fetchOne = async (request: APIRequestContext, found: TFound) => {
    const response = await request.get(found.url, { failOnStatusCode: false, timeout: 20_000 }).catch((error: unknown) => error as Error);
    if (response instanceof Error) {
      broken.push(`ERR ${found.url}  ← ${found.how} on ${found.from}: ${response.message.split('\n')[0]}`);
      return;
    }
    if (response.status() >= 400) {
      broken.push(`${response.status()} ${found.url}  ← ${found.how} on ${found.from}`);
      return;
    }
    const type = response.headers()['content-type'] ?? '';
    const { pathname } = new URL(found.url);
    if (pathname.startsWith('/api/')) return; // files and data: fetched, never read for links
    if (type.startsWith('text/html')) read(await response.text(), found.url);
    else if (type.startsWith('text/css')) for (const ref of cssUrls(await response.text())) enqueue(ref, found.url, 'CSS url()');
  };

  while (queue.length > 0) {
    const batch = queue.splice(0, 6);
    await Promise.all(batch.map((found) => fetchOne(request, found)));
  }

  for (const [target, wanted] of anchors) {
    const ids = pageIds.get(target);
    if (!ids) continue; // the page itself is reported above if it did not answer
    for (const { id, from } of wanted) {
      if (!ids.has(id) && !(target === landing && hydratedIds.has(id))) broken.push(`missing #${id} on ${target}  ← ${from}`);
    }
  }

  console.log(
    `Link crawl: ${seen.size} URLs fetched, ${pageIds.size} HTML pages read${skippedOverBound ? `, ${skippedOverBound} more left out over the bound of ${MAX_URLS}` : ''}.`,
  );
  if (broken.length) console.log(`Broken links (${broken.length}):\n${[...new Set(broken)].join('\n')}`);
  expect([...new Set(broken)], 'broken links (status, URL ← where it was found)').toEqual([]);
});
