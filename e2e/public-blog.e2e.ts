/**
 * The blog, the template gallery and the hero examples in a real browser: the category chips
 * filter, both addresses of every article answer with the article, Copy link copies its address,
 * every link of the gallery answers, its pictures (and the landing page's template previews) are
 * the demos' small card pictures at the width shown, Use this template starts the wizard with that template, the
 * hero switcher wraps round both ways and its dots jump, and each page reads complete without
 * JavaScript.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PREVIEW_CONTENT_TYPES, TEMPLATE_CATALOGUE, TEMPLATE_IDS } from '@dropsite/shared/templates';
import { DEMO_PREVIEW_PATHS, DEMO_READY_MS, waitForDemoSites } from '@dropsite/testkit/dashboard/public-pages';
import { makeJpeg } from './wizard-support.ts';

const BLOG_DIR = path.join(import.meta.dirname, '../dashboard/src/public/blog');

/** The articles as their Markdown files name them (id, slug, title, category). */
const ARTICLES = readdirSync(BLOG_DIR)
  .filter((file) => file.endsWith('.md'))
  .map((file) => {
    const text = readFileSync(path.join(BLOG_DIR, file), 'utf8');
    const field = (name: string) => (new RegExp(`^${name}: '?(.*?)'?$`, 'm').exec(text)?.[1] ?? '').replace(/''/g, "'");
    return { id: field('id'), slug: field('slug'), title: field('title'), category: field('category') };
  });

const visibleCards = (page: Page) => page.locator('.blog-cards > li:visible');

test('the blog’s category chips filter the articles, say when a category has none, and All shows every one again', async ({ page }) => {
  expect(ARTICLES).toHaveLength(3);
  await page.goto('/blog');
  const chips = page.getByRole('group', { name: 'Filter articles by category' });
  await expect(chips).toBeVisible();
  await expect(chips.getByRole('button')).toHaveText(['All', 'Photography', 'Sales', 'Agency Tools', 'Business Tips']);
  await expect(chips.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
  await expect(visibleCards(page)).toHaveCount(3);
  // The featured article comes first.
  await expect(visibleCards(page).first()).toContainText('Featured');
  await expect(visibleCards(page).first()).toContainText('Photography');

  await chips.getByRole('button', { name: 'Photography' }).click();
  await expect(chips.getByRole('button', { name: 'Photography' })).toHaveAttribute('aria-pressed', 'true');
  await expect(chips.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'false');
  await expect(visibleCards(page)).toHaveCount(1);
  const photography = ARTICLES.find((a) => a.category === 'Photography');
  await expect(visibleCards(page).getByRole('heading')).toHaveText(photography?.title ?? 'missing');
  await expect(page.getByRole('main').getByRole('status')).toHaveText('Showing 1 article in Photography.');
  // The choice is in the address, so it survives a reload.
  await expect(page).toHaveURL('/blog?category=photography');
  await page.reload();
  await expect(chips.getByRole('button', { name: 'Photography' })).toHaveAttribute('aria-pressed', 'true');
  await expect(visibleCards(page)).toHaveCount(1);

  await chips.getByRole('button', { name: 'Business Tips' }).click();
  await expect(visibleCards(page)).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('status')).toHaveText('No articles in Business Tips yet. Choose another category, or All.');

  // By keyboard: Tab to All, Enter.
  await chips.getByRole('button', { name: 'All' }).focus();
  await page.keyboard.press('Enter');
  await expect(visibleCards(page)).toHaveCount(3);
  await expect(page.getByRole('main').getByRole('status')).toHaveText('Showing all 3 articles.');
  await expect(page).toHaveURL('/blog');

  // Read Full Article opens the article.
  await visibleCards(page)
    .first()
    .getByRole('link', { name: /Read Full Article/ })
    .click();
  await expect(page).toHaveURL(`/blog/${photography?.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(photography?.title ?? 'missing');
});

test('every article answers at /blog/{slug} and /blog-{id} with its heading in the HTML, the second pointing its canonical at the first', async ({ request }) => {
  for (const article of ARTICLES) {
    for (const address of [`/blog/${article.slug}`, `/blog-${article.id}`]) {
      const response = await request.get(address);
      expect(response.status(), address).toBe(200);
      const html = await response.text();
      expect(html, address).toMatch(new RegExp(`<h1[^>]*>${article.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "(?:'|&#x27;)")}</h1>`));
      expect(html, address).toContain(`<link rel="canonical" href="${new URL(`/blog/${article.slug}`, response.url()).href}" />`);
      expect(html, address).toContain('<meta property="og:type" content="article" />');
    }
  }
  const list = await request.get('/blog-page');
  expect(list.status()).toBe(200);
  expect(await list.text()).toContain(`<link rel="canonical" href="${new URL('/blog', list.url()).href}" />`);
  // The second addresses stay out of the sitemap.
  const sitemap = await (await request.get('/sitemap.xml')).text();
  expect(sitemap).toContain('/blog/agency-delivery</loc>');
  expect(sitemap).not.toContain('/blog-agency-delivery</loc>');
  expect(sitemap).not.toContain('/blog-page</loc>');
});

test('an article’s back button returns to the blog, and Copy link copies the article’s address', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const article = ARTICLES.find((a) => a.slug === 'sales-file-sharing') ?? ARTICLES[0];
  await page.goto(`/blog-${article?.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(article?.title ?? 'missing');
  await expect(page.getByRole('heading', { name: 'Related articles' })).toBeVisible();

  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/blog/${article?.slug}`);

  await page.getByRole('link', { name: 'Back to the blog' }).click();
  await expect(page).toHaveURL('/blog');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('the template gallery lists all eight templates, and its own links answer', async ({ page }) => {
  await page.goto('/templates');
  for (const id of TEMPLATE_IDS) {
    const { name, demoPath } = TEMPLATE_CATALOGUE[id];
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${name.replace(/[/]/g, '\\/')}`) })).toBeVisible();
    await expect(page.getByRole('link', { name: `View demo: ${name}` })).toHaveAttribute('href', demoPath);
    await expect(page.getByRole('link', { name: `Use this template: ${name}` })).toHaveAttribute('href', `/?template=${id}#upload`);
  }
  await expect(page.locator('.template-card__picture')).toHaveCount(TEMPLATE_IDS.length);
  await expect(page.getByRole('link', { name: 'Request Template' })).toHaveAttribute('href', '/feedback?subject=Request%20Template');
  await expect(page.getByRole('link', { name: 'Get Started Now' })).toHaveAttribute('href', '/');

  const hrefs = await page.locator('main a').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).getAttribute('href') ?? ''));
  const demoPaths = new Set<string>(TEMPLATE_IDS.map((id) => TEMPLATE_CATALOGUE[id].demoPath));
  for (const href of new Set(hrefs.filter((h) => !demoPaths.has(h)))) {
    expect((await page.request.get(href)).status(), href).toBe(200);
  }
});

test('each template’s demo, its link-preview picture and its card pictures answer once the demo sites are built', async ({ page, baseURL }) => {
  test.setTimeout(DEMO_READY_MS + 60_000);
  await waitForDemoSites(baseURL ?? '');
  for (const id of TEMPLATE_IDS) {
    const { demoPath } = TEMPLATE_CATALOGUE[id];
    expect((await page.request.get(demoPath, { maxRedirects: 0 })).status(), demoPath).toBe(200);
    const picture = await page.request.get(`${demoPath}/og.png`);
    expect(picture.status(), `${demoPath}/og.png`).toBe(200);
    expect(picture.headers()['content-type']).toBe('image/png');
  }
  for (const path of DEMO_PREVIEW_PATHS) {
    const card = await page.request.get(path);
    expect(card.status(), path).toBe(200);
    expect(card.headers()['content-type'], path).toBe(DEMO_PREVIEW_CONTENT_TYPES[path.endsWith('.avif') ? 'avif' : path.endsWith('.webp') ? 'webp' : 'jpg']);
    // Revalidated by its ETag before each use, like every picture of a site: a site locked or removed stops showing it.
    expect(card.headers()['cache-control'], path).toBe('public, no-cache');
    expect(card.headers().etag, path).toBeTruthy();
  }
});

/** Every picture the page fetched, with its bytes, as the browser received them. */
function recordPictures(page: Page): { list: Array<{ url: string; bytes: number }>; settled: () => Promise<unknown> } {
  const list: Array<{ url: string; bytes: number }> = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'image') return;
    pending.push(
      response.body().then(
        (body) => void list.push({ url: new URL(response.url()).pathname, bytes: body.length }),
        () => undefined,
      ),
    );
  });
  return { list, settled: () => Promise.all(pending) };
}

/** The layout shift of the page so far (CLS without session windows): pictures arriving must not move anything. */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) total += (entry as PerformanceEntry & { value: number }).value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 200);
      }),
  );

test('the gallery shows each demo’s card picture at the width of its card: a few kilobytes each, reserved space, lazy below the first row', async ({ page, baseURL }) => {
  test.setTimeout(DEMO_READY_MS + 60_000);
  await waitForDemoSites(baseURL ?? '');
  await page.setViewportSize({ width: 1280, height: 800 });
  const pictures = recordPictures(page);
  await page.goto('/templates');
  const images = page.locator('.template-card__picture img');
  await expect(images).toHaveCount(TEMPLATE_IDS.length);
  // Sized before they arrive; the first row (in the first screen) at once, the rest as they come near.
  expect(
    await images.evaluateAll((all) => all.map((img) => [img.getAttribute('width'), img.getAttribute('height'), img.getAttribute('decoding'), img.getAttribute('loading')])),
  ).toEqual(TEMPLATE_IDS.map((_, i) => ['800', '420', 'async', i < 3 ? null : 'lazy']));
  for (const image of await images.all()) await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() => images.evaluateAll((all) => all.filter((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0).length), { timeout: 30_000 })
    .toBe(TEMPLATE_IDS.length);

  // A three-column card is 370 px wide: the 400 px AVIF is the one fetched, each the demo's own.
  const shown = await images.evaluateAll((all) =>
    all.map((el) => {
      const img = el as HTMLImageElement;
      return { src: new URL(img.currentSrc).pathname, width: img.getBoundingClientRect().width, height: img.getBoundingClientRect().height };
    }),
  );
  TEMPLATE_IDS.forEach((id, i) => {
    const { src, width, height } = shown[i]!;
    expect(src).toBe(`${TEMPLATE_CATALOGUE[id].demoPath}/preview-400.avif`);
    expect(width).toBeLessThanOrEqual(400);
    expect(Math.abs(height - (width * 630) / 1200)).toBeLessThan(1.5);
  });
  await pictures.settled();
  const fetched = pictures.list.filter((p) => /\/preview-\d+\./.test(p.url));
  expect(fetched.map((p) => p.url).sort()).toEqual(shown.map((s) => s.src).sort());
  for (const { url, bytes } of fetched) expect(bytes, url).toBeLessThan(16 * 1024);
  // Nothing else heavy: all the gallery's pictures together weigh less than one link picture did.
  expect(pictures.list.reduce((sum, p) => sum + p.bytes, 0)).toBeLessThan(100 * 1024);
  expect(await layoutShift(page)).toBeLessThan(0.01);
});

test.describe('on a 375 px phone with a 2x screen', () => {
  test.use({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2 });

  test('the gallery’s first card fetches the 800 px picture for its sharp 335 px, and the cards below wait until they come near', async ({ page, baseURL }) => {
    test.setTimeout(DEMO_READY_MS + 60_000);
    await waitForDemoSites(baseURL ?? '');
    const pictures = recordPictures(page);
    await page.goto('/templates');
    const first = page.locator('.template-card__picture img').first();
    await expect
      .poll(() =>
        first.evaluate((el) => ((el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0 ? new URL((el as HTMLImageElement).currentSrc).pathname : '')),
      )
      .toBe(`${TEMPLATE_CATALOGUE[TEMPLATE_IDS[0]].demoPath}/preview-800.avif`);
    // 375 px less the page's gutters and the card's border: the 400 px picture would be soft on this screen.
    const box = await first.boundingBox();
    expect(box?.width).toBeGreaterThan(320);
    expect(box?.width).toBeLessThanOrEqual(335);
    await page.waitForLoadState('networkidle');
    await pictures.settled();
    // The last cards are screens away: not fetched until scrolled to.
    const last = TEMPLATE_CATALOGUE[TEMPLATE_IDS[TEMPLATE_IDS.length - 1]!].demoPath;
    expect(pictures.list.some((p) => p.url.startsWith(`${last}/`))).toBe(false);
    await page.locator('.template-card__picture img').last().scrollIntoViewIfNeeded();
    await expect.poll(() => pictures.list.some((p) => p.url === `${last}/preview-800.avif`)).toBe(true);
    for (const { url, bytes } of pictures.list) expect(bytes, url).toBeLessThan(40 * 1024);
    expect(await layoutShift(page)).toBeLessThan(0.01);
  });
});

test('the landing page’s template previews are the demos’ card pictures, fetched only when scrolled near, a few kilobytes each', async ({ page, baseURL }) => {
  test.setTimeout(DEMO_READY_MS + 60_000);
  await waitForDemoSites(baseURL ?? '');
  await page.setViewportSize({ width: 1280, height: 800 });
  const pictures = recordPictures(page);
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await pictures.settled();
  expect(pictures.list.filter((p) => /\/preview-\d+\./.test(p.url))).toEqual([]);

  const section = page.getByRole('region', { name: 'Pick a look that suits the work' });
  const images = section.locator('.template-preview__frame img');
  await images.first().scrollIntoViewIfNeeded();
  await expect.poll(() => images.evaluateAll((all) => all.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length), { timeout: 30_000 }).toBe(3);
  const shown = await images.evaluateAll((all) =>
    all.map((img) => [new URL((img as HTMLImageElement).currentSrc).pathname, img.getAttribute('loading'), img.getAttribute('width'), img.getAttribute('height')]),
  );
  expect(shown).toEqual(['/photo-gallery', '/portfolio-resume', '/pitch-template'].map((demo) => [`${demo}/preview-400.avif`, 'lazy', '800', '420']));
  await pictures.settled();
  const fetched = pictures.list.filter((p) => /\/preview-\d+\./.test(p.url));
  expect(fetched).toHaveLength(3);
  for (const { url, bytes } of fetched) expect(bytes, url).toBeLessThan(16 * 1024);
});

test('Use this template opens the upload wizard with that template chosen', async ({ page }) => {
  await page.goto('/templates');
  await page.getByRole('link', { name: 'Use this template: Photo Gallery' }).click();
  await expect(page).toHaveURL('/?template=photo-gallery#upload');
  await page.getByTestId('file-input').setInputFiles([{ name: 'proof.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300, [120, 90, 60]) }]);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('radio', { name: /Photo Gallery/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /Universal/ })).not.toBeChecked();
});

test('the hero examples wrap round from the eighth to the first and back, and a dot jumps to its example', async ({ page }) => {
  await page.goto('/hero-examples');
  const carousel = page.getByRole('region', { name: 'Hero examples' });
  const shown = carousel.locator('[data-slide]:visible');
  const next = carousel.getByRole('button', { name: 'Next example' });
  const previous = carousel.getByRole('button', { name: 'Previous example' });
  await expect(shown).toHaveCount(1);
  await expect(shown).toHaveAttribute('aria-label', '1 of 8: Portfolio');
  // It opens in the professional light theme.
  await expect(carousel.getByLabel('Theme')).toHaveValue('professional-light');
  await expect(carousel.locator('[data-stage]')).toHaveAttribute('data-theme', 'professional-light');

  await previous.click();
  await expect(shown).toHaveAttribute('aria-label', '8 of 8: Creative');
  await next.click();
  await expect(shown).toHaveAttribute('aria-label', '1 of 8: Portfolio');
  for (let i = 0; i < 7; i++) await next.click();
  await expect(shown).toHaveAttribute('aria-label', '8 of 8: Creative');
  await next.click();
  await expect(shown).toHaveAttribute('aria-label', '1 of 8: Portfolio');

  await carousel.getByRole('button', { name: 'Example 5: Personal' }).click();
  await expect(shown).toHaveAttribute('aria-label', '5 of 8: Personal');
  await expect(carousel.getByRole('button', { name: 'Example 5: Personal' })).toHaveAttribute('aria-current', 'true');
  await expect(carousel.getByText('5 of 8: Personal')).toBeVisible();

  // The arrow keys step while focus is in the carousel.
  await carousel.getByRole('button', { name: 'Example 5: Personal' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(shown).toHaveAttribute('aria-label', '6 of 8: Project');

  // The theme menu restyles the preview.
  const stage = carousel.locator('[data-stage]');
  const lightBackground = await stage.evaluate((el) => getComputedStyle(el).backgroundColor);
  await carousel.getByLabel('Theme').selectOption('nature-dark');
  await expect(stage).toHaveAttribute('data-theme', 'nature-dark');
  await expect.poll(() => stage.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(lightBackground);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the blog shows every article and no chips; the hero examples show the first and list all eight', async ({ page }) => {
    await page.goto('/blog');
    await expect(visibleCards(page)).toHaveCount(3);
    await expect(page.getByRole('group', { name: 'Filter articles by category' })).toBeHidden();

    await page.goto('/blog/agency-delivery');
    await expect(page.getByRole('button', { name: 'Copy link' })).toBeHidden();
    await expect(page.getByRole('link', { name: 'Back to the blog' })).toHaveAttribute('href', '/blog');

    await page.goto('/hero-examples');
    await expect(page.locator('[data-slide]:visible')).toHaveCount(1);
    await expect(page.locator('[data-slide]:visible')).toHaveAttribute('aria-label', '1 of 8: Portfolio');
    await expect(page.getByRole('heading', { name: 'All eight examples' })).toBeVisible();
    await expect(page.locator('.hero-examples__list > li')).toHaveCount(8);
    await expect(page.getByRole('button', { name: 'Next example' })).toBeHidden();
  });
});
