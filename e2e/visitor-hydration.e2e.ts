/**
 * When a site's islands hydrate (site-template's client:interaction): a page whose first screen holds a
 * viewer ships no island code and no React until the visitor gives any input, and nothing done before
 * the code arrived is lost. A click on a thumbnail is replayed once the gallery has hydrated, so it
 * opens the lightbox; the keyboard reaches and opens everything, and focus stays where it was.
 */
import { giveName } from './engagement-helpers.ts';
import { expect, test, type Page } from '@playwright/test';
import { moveThePointer, pdf, photos, publish, silentWav, zip } from './visitor-support.ts';
import { whenPageIdle } from './page-settle.ts';

test.describe.configure({ mode: 'serial' });

let gallerySlug = '';
let pdfSlug = '';
let archiveSlug = '';

test.beforeAll(async ({ request }) => {
  gallerySlug = await publish(request, await photos(6, 'quay'));
  pdfSlug = await publish(request, [pdf('handbook.pdf', 3)]);
  archiveSlug = await publish(request, [
    await zip('selects.zip', [
      { path: 'raw/frame-01.cr2', data: Buffer.alloc(4000, 3) },
      { path: 'raw/frame-02.cr2', data: Buffer.alloc(9000, 5) },
      { path: 'edited/frame-01.jpg', data: Buffer.alloc(2000, 9) },
      { path: 'README.txt', data: 'Thank you!\n' },
    ]),
  ]);
});

/** Every script the page requests, by path, in order. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

const REACT_CLIENT = /^\/_astro\/client\.[\w-]+\.js$/;

/** Where an element is on the page (not in the viewport, which scrolls). */
async function pageBox(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const box = element.getBoundingClientRect();
      return { x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: box.height };
    });
}

/** Holds the React client's response until `release` is called, so a test acts before the islands can hydrate. */
async function holdReactClient(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => REACT_CLIENT.test(url.pathname),
    async (route) => {
      await released;
      await route.continue();
    },
  );
  return release;
}

test('a gallery site loads no island code and no React before input; the first click on a thumbnail, before hydration, opens the lightbox', async ({ page }) => {
  const scripts = recordScripts(page);
  const release = await holdReactClient(page);
  await page.goto(`/${gallerySlug}`);
  await page.waitForLoadState('networkidle');
  const tiles = page.locator('.gallery-viewer .gv-tile');
  // The server-rendered gallery is all there: six thumbnails with their sizes, and their names.
  await expect(tiles).toHaveCount(6);
  await expect(tiles.first().locator('img')).toHaveJSProperty('complete', true);
  expect(
    await tiles
      .first()
      .locator('img')
      .evaluate((img: HTMLImageElement) => img.width > 0 && img.height > 0 && img.hasAttribute('width')),
  ).toBe(true);
  await expect(tiles.first()).toHaveAttribute('aria-label', /^quay-01\.jpg, open image 1 of 6$/);
  await whenPageIdle(page);
  expect(scripts).toEqual([]);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
  const before = await pageBox(page, '.gallery-viewer .gv-tile');

  // The click is the first input: it starts hydration, is held, and is carried out by the gallery once hydrated.
  await tiles.nth(2).click();
  const dialog = page.getByRole('dialog');
  await expect.poll(() => scripts.some((path) => REACT_CLIENT.test(path))).toBe(true);
  await whenPageIdle(page);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
  await expect(dialog).toHaveCount(0);
  expect(page.url()).toMatch(new RegExp(`/${gallerySlug}$`)); // the tile's link was not followed
  release();
  await expect(dialog.locator('.lightbox__counter')).toHaveText('3 of 6');
  expect(page.url()).toMatch(new RegExp(`/${gallerySlug}$`)); // the tile's link was not followed
  expect(scripts.some((path) => REACT_CLIENT.test(path))).toBe(true);
  expect(scripts.some((path) => /^\/_astro\/GalleryViewer\.[\w-]+\.js$/.test(path))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(tiles.nth(2)).toBeFocused();
  // Hydrating kept the server-rendered gallery in place.
  expect(await pageBox(page, '.gallery-viewer .gv-tile')).toEqual(before);
});

test('a thumbnail opened in a new tab before hydration opens there, and this page stays as it was', async ({ page, context }) => {
  await page.goto(`/${gallerySlug}`);
  await page.waitForLoadState('networkidle');
  const tile = page.locator('.gallery-viewer .gv-tile').first();
  const opened = context.waitForEvent('page');
  await tile.click({ modifiers: ['Control'] });
  const tab = await opened;
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe(new URL((await tile.getAttribute('href'))!, page.url()).pathname);
  await tab.close();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a PDF site loads no island code and no React before input; a pointer over it hydrates the viewer and loads the document', async ({ page }) => {
  const scripts = recordScripts(page);
  await page.goto(`/${pdfSlug}`);
  await page.waitForLoadState('networkidle');
  const poster = page.locator('.pdf-stage img.pdf-poster');
  await expect(poster).toBeVisible();
  expect(await poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByRole('document', { name: 'handbook.pdf, page 1 of 3' })).toBeVisible();
  await whenPageIdle(page);
  expect(scripts).toEqual([]);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(1);

  await poster.hover();
  await expect(page.locator('.pdf-viewer')).toHaveAttribute('data-state', 'ready');
  expect(scripts.some((path) => REACT_CLIENT.test(path))).toBe(true);
  expect(scripts.some((path) => /^\/_astro\/PdfViewer\.[\w-]+\.js$/.test(path))).toBe(true);
});

test('keyboard: Tab reaches a thumbnail, focus stays on it while the gallery hydrates, and Enter opens it', async ({ page }) => {
  await page.goto(`/${gallerySlug}`);
  await page.waitForLoadState('networkidle');
  const first = page.locator('.gallery-viewer .gv-tile').first();
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await first.evaluate((tile) => tile === document.activeElement);
  }
  expect(reached).toBe(true);
  // The first Tab was input: the gallery hydrates, and the tile keeps the focus.
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await expect(first).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.lightbox__counter')).toHaveText('1 of 6');
  await page.keyboard.press('ArrowRight');
  await expect(dialog.locator('.lightbox__counter')).toHaveText('2 of 6');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.locator('.gallery-viewer .gv-tile').nth(1)).toBeFocused();
});

test('keyboard before hydration: Enter on a focused thumbnail is carried out once the gallery has hydrated', async ({ page }) => {
  await page.goto(`/${gallerySlug}`);
  await page.waitForLoadState('networkidle');
  const release = await holdReactClient(page);
  const tile = page.locator('.gallery-viewer .gv-tile').nth(4);
  // Focus and Enter before the code has come: the browser turns Enter into a click on the link, held until the gallery runs.
  await tile.focus();
  await page.keyboard.press('Enter');
  await whenPageIdle(page);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
  await expect(tile).toBeFocused();
  release();
  await expect(page.getByRole('dialog').locator('.lightbox__counter')).toHaveText('5 of 6');
  expect(page.url()).toMatch(new RegExp(`/${gallerySlug}$`));
  await page.keyboard.press('Escape');
  await expect(tile).toBeFocused();
});

test('the first pointer move hydrates the viewer in view, without loading PDF.js', async ({ page }) => {
  await page.goto(`/${pdfSlug}`);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
  await moveThePointer(page);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  // A pointer that is not over the viewer does not load PDF.js.
  await expect(page.locator('.pdf-viewer')).toHaveAttribute('data-state', 'waiting');
});

test('controls that exist only in the browser, a sound file’s favourite, come on the first input', async ({ page }) => {
  const settings = JSON.stringify({ enableFavorites: true, enableComments: false, enableApprovals: false, enableAnalytics: false });
  const slug = await publish(page.request, [{ name: 'room-tone.wav', type: 'audio/wav', bytes: silentWav() }], { settings });
  await page.goto(`/${slug}`);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('audio')).toHaveCount(1);
  await expect(page.locator('[data-engagement]')).toHaveCount(0);
  // The island renders nothing on the server, so it is watched through the element around it.
  await moveThePointer(page);
  const favourite = page.locator('[data-engagement]').getByRole('button', { name: 'Favourite' });
  await expect(favourite).toBeVisible();
  await favourite.click();
  await giveName(page, 'Ada Palmer');
  await expect(favourite).toHaveAttribute('aria-pressed', 'true');
});

test('text typed into the archive search before the viewer hydrates filters the tree once it has, and the field keeps the caret', async ({ page }) => {
  const release = await holdReactClient(page);
  await page.goto(`/${archiveSlug}`);
  const tree = page.getByRole('tree', { name: 'Contents of selects.zip' });
  const names = () => tree.getByRole('treeitem').evaluateAll((items) => items.map((item) => item.getAttribute('data-path')));
  await expect(tree).toBeVisible();
  const all = await names();
  expect(all).toHaveLength(6);

  // Typed while the code is still on its way: the browser shows the text, nothing filters yet.
  const search = page.getByRole('searchbox', { name: 'Search files' });
  await search.click();
  await page.keyboard.type('frame-01');
  await page.keyboard.press('ArrowLeft');
  await expect(search).toHaveValue('frame-01');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
  expect(await names()).toEqual(all);

  release();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await expect.poll(names).toEqual(['edited', 'edited/frame-01.jpg', 'raw', 'raw/frame-01.cr2']);
  await expect(search).toHaveValue('frame-01');
  await expect(search).toBeFocused();
  expect(await search.evaluate((field: HTMLInputElement) => [field.selectionStart, field.selectionEnd])).toEqual([7, 7]);
  // Typing on goes on from there, now through the viewer.
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('2');
  await expect.poll(names).toEqual(['raw', 'raw/frame-02.cr2']);
});

test('a sort chosen before the archive viewer hydrates is applied once it has', async ({ page }) => {
  const release = await holdReactClient(page);
  await page.goto(`/${archiveSlug}`);
  const tree = page.getByRole('tree', { name: 'Contents of selects.zip' });
  const names = () => tree.getByRole('treeitem').evaluateAll((items) => items.map((item) => item.getAttribute('data-path')));
  await expect(tree).toBeVisible();
  await moveThePointer(page);
  await page.getByLabel('Sort by').selectOption('size');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
  release();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await expect.poll(names).toEqual(['raw', 'raw/frame-02.cr2', 'raw/frame-01.cr2', 'edited', 'edited/frame-01.jpg', 'README.txt']);
  await expect(page.getByLabel('Sort by')).toHaveValue('size');
});
