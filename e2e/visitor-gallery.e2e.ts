/**
 * Visitor galleries in real Chromium, on sites published through the upload call: the single
 * image viewer (1), grid (4), masonry (12), lightbox gallery (30), the fallback gallery (images
 * without previews) and the failed-image placeholder. Keyboard, focus and downloads included.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import yauzl from 'yauzl';
import { ALL_ENGAGEMENT } from './engagement-helpers.ts';
import { moveThePointer, pdf, photos, publish } from './visitor-support.ts';

test.describe.configure({ mode: 'serial' });

/** The islands hydrate once in view after the visitor's first input: move the pointer, wait for the gallery's island to be live. */
async function openSite(page: Page, slug: string) {
  await page.goto(`/${slug}`);
  await moveThePointer(page);
  await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
}

async function zipEntryNames(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: { fileName: string }) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

test('one image: details panel, Like kept across visits, full-screen overlay closed three ways, the original downloads', async ({ page }) => {
  const [photo] = await photos(1, 'harbour-dawn');
  const slug = await publish(page.request, [photo!]);
  await openSite(page, slug);

  await expect(page.getByRole('heading', { level: 2, name: 'Image' })).toBeVisible();
  const panel = page.getByRole('complementary', { name: 'Image details' });
  await expect(panel.getByText('1200 × 800 px')).toBeVisible();
  await expect(panel.getByText('JPEG')).toBeVisible();
  await expect(page.getByText('Photo by Mira Solberg')).toBeVisible();

  const like = panel.getByRole('button', { name: 'Like harbour-dawn-01.jpg' });
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  // The stored Like is read by the viewer, which hydrates on the visitor's first input.
  await moveThePointer(page);
  await expect(page.getByRole('button', { name: 'Like harbour-dawn-01.jpg' })).toHaveAttribute('aria-pressed', 'true');

  const trigger = page.getByRole('link', { name: 'View harbour-dawn-01.jpg full screen' });
  const dialog = page.getByRole('dialog', { name: 'harbour-dawn-01.jpg' });
  await trigger.click();
  await expect(dialog).toBeVisible();
  // The overlay shows the display copy, not the download.
  await expect(dialog.locator('img')).toHaveAttribute('src', /mode=preview$/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();

  await trigger.click();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  await trigger.click();
  await expect(dialog).toBeVisible();
  await page.mouse.click(8, 300); // the dark area beside the picture
  await expect(dialog).toBeHidden();

  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('link', { name: /^Download harbour-dawn-01\.jpg/ }).click()]);
  expect((await readFile(await download.path())).equals(photo!.bytes)).toBe(true);
});

test('four images: grid with thumbnails, lightbox with N of M, arrow keys, focus trapped and restored, Download All as one ZIP', async ({ page }) => {
  const files = await photos(4);
  const slug = await publish(page.request, files);
  await openSite(page, slug);

  await expect(page.locator('.gallery-viewer')).toHaveAttribute('data-layout', 'grid');
  await expect(page.locator('.vi-badge').first()).toHaveText('4 images');
  const tiles = page.locator('.gv-tile');
  await expect(tiles).toHaveCount(4);
  for (const img of await tiles.locator('img').all()) {
    await expect(img).toHaveAttribute('src', /size=300$/);
    await expect(img).toHaveJSProperty('complete', true);
  }

  await tiles.nth(1).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.lightbox__counter')).toHaveText('2 of 4');
  // Favourites are off on this site: the lightbox offers the local Like instead.
  await expect(dialog.getByRole('button', { name: /^Like / })).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await expect(dialog.locator('.lightbox__counter')).toHaveText('3 of 4');
  await dialog.getByRole('button', { name: 'Next image' }).click();
  await expect(dialog.locator('.lightbox__counter')).toHaveText('4 of 4');
  await page.keyboard.press('ArrowRight');
  await expect(dialog.locator('.lightbox__counter')).toHaveText('1 of 4');
  await page.keyboard.press('ArrowLeft');
  await expect(dialog.locator('.lightbox__counter')).toHaveText('4 of 4');
  await expect(dialog.getByText('Use ← → keys to navigate')).toBeVisible();

  // Tab never leaves the dialog.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Focus returns to the tile of the picture last shown.
  await expect(tiles.nth(3)).toBeFocused();

  // Keyboard only: Enter on a tile opens it.
  await tiles.nth(0).focus();
  await page.keyboard.press('Enter');
  await expect(dialog.locator('.lightbox__counter')).toHaveText('1 of 4');
  await page.keyboard.press('Escape');

  const downloadAll = page.getByRole('button', { name: 'Download All' });
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), downloadAll.click()]);
  expect(download.suggestedFilename()).toMatch(/\.zip$/);
  const names = await zipEntryNames(await readFile(await download.path()));
  expect(names.sort()).toEqual(files.map((f) => f.name).sort());
  await expect(page.locator('.vi-download-all')).toContainText('Downloaded');
});

test('twelve images: masonry, toggled to grid and back, same lightbox', async ({ page }) => {
  const slug = await publish(page.request, await photos(12));
  await openSite(page, slug);
  const gallery = page.locator('.gallery-viewer');
  await expect(gallery).toHaveAttribute('data-layout', 'masonry');
  await expect(page.locator('.gv-masonry .gv-tile')).toHaveCount(12);
  await page.getByRole('button', { name: 'Grid', exact: true }).click();
  await expect(page.locator('.gv-grid .gv-tile')).toHaveCount(12);
  await expect(page.getByRole('button', { name: 'Grid', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Masonry' }).click();
  await expect(page.locator('.gv-masonry .gv-tile')).toHaveCount(12);
  await page.locator('.gv-tile').nth(11).click();
  await expect(page.getByRole('dialog').locator('.lightbox__counter')).toHaveText('12 of 12');
});

/** Each tile's box on the page, in the list's order. */
async function tileBoxes(page: Page) {
  return page.locator('.gv-tile').evaluateAll((tiles) =>
    tiles.map((tile) => {
      const box = tile.getBoundingClientRect();
      return { x: Math.round(box.x + window.scrollX), y: Math.round(box.y + window.scrollY), width: Math.round(box.width), height: Math.round(box.height) };
    }),
  );
}

test('masonry reads row by row, in the order the lightbox counts, and no picture moves while the page comes alive', async ({ page }) => {
  // Two widths, each loaded, hydrated and opened in the lightbox three times.
  test.setTimeout(180_000);
  const slug = await publish(page.request, await photos(12));
  for (const [width, columns] of [
    [1280, 3],
    [375, 2],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/${slug}`);
    await expect(page.locator('.gv-masonry .gv-tile')).toHaveCount(12);
    const before = await tileBoxes(page);
    // The first row holds the first pictures, left to right; no picture starts above the one before it.
    const firstRow = before.filter((box) => box.y === before[0]!.y);
    expect(firstRow).toHaveLength(columns);
    expect(firstRow.map((box) => box.x)).toEqual([...firstRow.map((box) => box.x)].sort((a, b) => a - b));
    expect(before.indexOf(firstRow[columns - 1]!)).toBe(columns - 1);
    const tops = before.map((box) => box.y);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    // Tiles keep the pictures' shapes: a landscape tile is wider than tall, a portrait one taller.
    expect(before[0]!.width).toBeGreaterThan(before[0]!.height);
    expect(before[3]!.height).toBeGreaterThan(before[3]!.width);

    await moveThePointer(page);
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.gv-tile img')].every((img) => img.complete));
    expect(await tileBoxes(page)).toEqual(before);

    // The lightbox counts in the same order: the first row's pictures are 1, 2 (and 3) of 12.
    const dialog = page.getByRole('dialog');
    for (let i = 0; i < columns; i++) {
      await page.locator('.gv-tile').nth(i).click();
      await expect(dialog.locator('.lightbox__counter')).toHaveText(`${i + 1} of 12`);
      await expect(dialog.locator('.lightbox__name')).toHaveText(`frame-${String(i + 1).padStart(2, '0')}.jpg`);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
  }
});

test('the lightbox is opaque; its comments open beside the photo on a wide screen, never over it, and as a sheet on a phone', async ({ page }) => {
  const slug = await publish(page.request, await photos(3), { settings: JSON.stringify(ALL_ENGAGEMENT) });
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSite(page, slug);
  await page.locator('.gv-tile').first().click();
  const dialog = page.getByRole('dialog');
  const photo = dialog.locator('.lightbox__frame');
  await expect(photo.locator('img')).toBeVisible();
  // Nothing of the page shows through.
  expect(await dialog.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(6, 7, 10)');

  const side = dialog.getByRole('region', { name: 'About frame-01.jpg' });
  await expect(side).toContainText('1200 × 800 · JPEG');
  await side.getByRole('button', { name: /^Comments/ }).click();
  const comments = dialog.getByRole('region', { name: /^Comments on frame-01\.jpg/ });
  await expect(comments).toBeVisible();
  const photoBox = (await photo.boundingBox())!;
  const commentsBox = (await comments.boundingBox())!;
  const sideBox = (await side.boundingBox())!;
  expect(commentsBox.x).toBeGreaterThanOrEqual(photoBox.x + photoBox.width);
  expect(sideBox.x).toBeGreaterThanOrEqual(photoBox.x + photoBox.width);
  expect(commentsBox.x + commentsBox.width).toBeLessThanOrEqual(1280);
  await dialog.getByRole('button', { name: 'Close comments' }).click();
  await expect(comments).toBeHidden();
  // The next picture keeps the panel beside it.
  await page.keyboard.press('ArrowRight');
  await expect(dialog.locator('.lightbox__counter')).toHaveText('2 of 3');
  await expect(dialog.getByRole('region', { name: 'About frame-02.jpg' })).toBeVisible();

  // A phone: the controls sit under the photo and the comments open as a sheet from the bottom edge.
  await page.setViewportSize({ width: 375, height: 812 });
  const phoneSide = dialog.getByRole('region', { name: 'About frame-02.jpg' });
  const phonePhoto = (await photo.boundingBox())!;
  expect((await phoneSide.locator('[data-engagement]').boundingBox())!.y).toBeGreaterThanOrEqual(phonePhoto.y + phonePhoto.height);
  await phoneSide.getByRole('button', { name: /^Comments/ }).click();
  const sheet = dialog.getByRole('region', { name: /^Comments on frame-02\.jpg/ });
  await expect(sheet).toBeVisible();
  const sheetBox = (await sheet.boundingBox())!;
  expect(sheetBox.x).toBeGreaterThanOrEqual(0);
  expect(sheetBox.x + sheetBox.width).toBeLessThanOrEqual(375);
  expect(Math.round(sheetBox.y + sheetBox.height)).toBeLessThanOrEqual(812);
});

test("a mixed site: the gallery's Download All and the footer's Download all files give the same archive", async ({ page }) => {
  const files = [...(await photos(3)), pdf('contract.pdf', 1)];
  const slug = await publish(page.request, files);
  await openSite(page, slug);
  const [fromGallery] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    page.locator('.gallery-viewer').getByRole('button', { name: 'Download All' }).click(),
  ]);
  const [fromFooter] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('link', { name: 'Download all files' }).click()]);
  expect(fromGallery.suggestedFilename()).toBe(fromFooter.suggestedFilename());
  const galleryEntries = await zipEntryNames(await readFile(await fromGallery.path()));
  expect(galleryEntries.sort()).toEqual(files.map((f) => f.name).sort());
  expect((await zipEntryNames(await readFile(await fromFooter.path()))).sort()).toEqual(galleryEntries);
});

test.describe('thirty images', () => {
  let slug = '';
  test.beforeAll(async ({ request }) => {
    slug = await publish(request, await photos(30));
  });

  test('20 at a time: Load 10 More Images, then the counts; lazy below the fold', async ({ page }) => {
    await openSite(page, slug);
    await expect(page.locator('.gallery-viewer')).toHaveAttribute('data-layout', 'lightbox');
    await expect(page.locator('.gv-tile')).toHaveCount(20);
    await expect(page.getByText('Showing: 20 of 30')).toBeVisible();
    await expect(page.locator('.gv-tile img').nth(19)).toHaveAttribute('loading', 'lazy');
    // Pressed where it is: scrolling to it would load the next page by itself (tested below).
    await page.getByRole('button', { name: 'Load 10 More Images' }).dispatchEvent('click');
    await expect(page.locator('.gv-tile')).toHaveCount(30);
    await expect(page.getByText('Showing: 30 of 30')).toBeVisible();
    await expect(page.getByRole('button', { name: /More Images/ })).toHaveCount(0);
  });

  test('scrolling to the end loads the next page by itself', async ({ page }) => {
    await openSite(page, slug);
    await expect(page.locator('.gv-tile')).toHaveCount(20);
    await page.locator('.gv-tile').nth(19).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 800);
    await expect(page.locator('.gv-tile')).toHaveCount(30);
  });

  test('search filters by name, says how many, and says when nothing matches; lightbox walks the results', async ({ page }) => {
    await openSite(page, slug);
    const search = page.getByRole('searchbox', { name: 'Search images' });
    await search.fill('frame-2');
    // frame-20 … frame-29
    await expect(page.getByText('Showing: 10 of 10')).toBeVisible();
    await expect(page.locator('.gv-tile')).toHaveCount(10);
    await page.locator('.gv-tile').first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('.lightbox__counter')).toHaveText('1 of 10');
    await expect(dialog.getByText('Use ← → keys to navigate')).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await expect(dialog.locator('.lightbox__counter')).toHaveText('10 of 10');
    await expect(dialog.locator('.lightbox__name')).toHaveText('frame-29.jpg');
    await page.keyboard.press('Escape');
    await search.fill('no-such-frame');
    await expect(page.getByText('No images found')).toBeVisible();
    await expect(page.getByText('Showing: 0 of 0')).toBeVisible();
  });
});

test('images without a preview: the fallback gallery, its toggle and a Load more that works', async ({ page }) => {
  // Bytes no decoder accepts: the builder derives no thumbnail, so no image has a preview.
  const broken = Array.from({ length: 23 }, (_, i) => ({ name: `scan-${String(i + 1).padStart(2, '0')}.jpg`, type: 'image/jpeg', bytes: Buffer.alloc(2048, i + 1) }));
  const slug = await publish(page.request, broken);
  await openSite(page, slug);
  await expect(page.locator('.gallery-viewer')).toHaveAttribute('data-layout', 'fallback');
  await expect(page.locator('.gv-card')).toHaveCount(20);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(page.locator('.gv-card')).toHaveCount(23);
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Masonry' }).click();
  await expect(page.locator('.gv-cards--masonry .gv-card')).toHaveCount(23);
  await expect(
    page
      .locator('.gv-card')
      .first()
      .getByRole('link', { name: /Download scan-01\.jpg/ }),
  ).toHaveAttribute('href', /mode=download$/);
});

test('a thumbnail that fails to load becomes the placeholder', async ({ page }) => {
  const slug = await publish(page.request, await photos(3));
  await page.route(/size=300$/, (route) => route.abort());
  await openSite(page, slug);
  await expect(page.getByRole('img', { name: 'Error loading image' })).toHaveCount(3);
});
