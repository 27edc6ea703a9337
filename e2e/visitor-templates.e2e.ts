/**
 * Templates in real Chromium, on sites published through the upload call with each file's folder
 * as its group: the same files under two templates give visibly different pages; the photo
 * gallery's category chips filter the gallery and its lightbox; the product carousel wraps and
 * its colour chips change the picture.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { makePhoto, moveThePointer, pdf, publish, type TUploadFile } from './visitor-support.ts';

test.describe.configure({ mode: 'serial' });

/** Publishes the files under a template, with the fields every test of this file shares. */
function publishGrouped(request: APIRequestContext, files: TUploadFile[], fields: Record<string, string>): Promise<string> {
  return publish(request, files, { title: 'Template test', description: 'The same files, shaped by the template', ...fields });
}

/** Photos named after their folder ('forest-02.jpg'), each picture different. */
async function grouped(groups: Record<string, number>): Promise<TUploadFile[]> {
  const out: TUploadFile[] = [];
  for (const [group, count] of Object.entries(groups)) {
    for (let i = 1; i <= count; i += 1) {
      const name = `${group.toLowerCase()}-${String(i).padStart(2, '0')}.jpg`;
      out.push({ name, type: 'image/jpeg', bytes: await makePhoto(out.length + 1), group });
    }
  }
  return out;
}

const fontSize = (page: Page, selector: string) => page.locator(selector).evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));

test('the same files under two templates: a different hero, a different first section, a different type scale', async ({ page }) => {
  const files = [...(await grouped({ Harbour: 2, Forest: 2 })), pdf('pitch-deck.pdf', 3)];
  const universal = await publishGrouped(page.request, files, { template: 'universal' });
  const pitch = await publishGrouped(page.request, files, { template: 'pitch-template' });

  await page.goto(`/${universal}`);
  await expect(page.locator('html')).toHaveAttribute('data-template', 'universal');
  await expect(page.locator('.hero')).toHaveAttribute('data-hero-kind', 'standard');
  await expect(page.locator('main h2').first()).toHaveText('Gallery');
  const universalTitle = await fontSize(page, 'h1');
  const universalShot = await page.screenshot();

  await page.goto(`/${pitch}`);
  await expect(page.locator('html')).toHaveAttribute('data-template', 'pitch-template');
  await expect(page.locator('.hero')).toHaveAttribute('data-hero-kind', 'deck');
  await expect(page.locator('.hero__eyebrow')).toHaveText('Pitch');
  // The deck comes first, in the PDF viewer, before the photos.
  await expect(page.locator('main h2').first()).toContainText('pitch-deck.pdf');
  await expect(page.locator('[data-block="deck"] .pdf-viewer, [data-block="deck"] astro-island').first()).toBeVisible();
  expect(await fontSize(page, 'h1')).toBeGreaterThan(universalTitle * 1.2);
  expect((await page.screenshot()).equals(universalShot)).toBe(false);
});

test('photo gallery: the cover hero, category chips that filter by keyboard, and a lightbox that wraps within the category', async ({ page }) => {
  const slug = await publishGrouped(page.request, await grouped({ Harbour: 3, Forest: 3 }), { template: 'photo-gallery' });
  await page.goto(`/${slug}`);
  await expect(page.locator('.hero')).toHaveAttribute('data-hero-kind', 'cover');
  await expect(page.locator('.hero__backdrop img')).toHaveJSProperty('complete', true);
  await expect(page.locator('main > [data-block]').first()).toHaveAttribute('data-block', 'gallery');
  await page.locator('.gallery-viewer').scrollIntoViewIfNeeded();
  await moveThePointer(page);
  await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });

  const chips = page.getByRole('group', { name: 'Filter by category' }).getByRole('button');
  await expect(chips).toHaveText(['All 6', 'Harbour 3', 'Forest 3']);
  await expect(chips.first()).toHaveAttribute('aria-pressed', 'true');
  const tiles = page.locator('.gv-tile');
  await expect(tiles).toHaveCount(6);

  // Keyboard: the Forest chip, focused, chosen with Enter.
  const forest = chips.filter({ hasText: 'Forest' });
  await forest.focus();
  await page.keyboard.press('Enter');
  await expect(forest).toHaveAttribute('aria-pressed', 'true');
  await expect(chips.first()).toHaveAttribute('aria-pressed', 'false');
  await expect(tiles).toHaveCount(3);
  await expect(page.locator('.gv-tile__caption')).toHaveText(['forest-01.jpg', 'forest-02.jpg', 'forest-03.jpg']);

  await tiles.first().click();
  const dialog = page.locator('dialog.lightbox');
  await expect(dialog).toBeVisible();
  const counter = dialog.locator('.lightbox__counter');
  const name = dialog.locator('.lightbox__name');
  await expect(counter).toHaveText('1 of 3');
  await expect(name).toHaveText('forest-01.jpg');
  await page.keyboard.press('ArrowLeft');
  await expect(counter).toHaveText('3 of 3');
  await expect(name).toHaveText('forest-03.jpg');
  await page.keyboard.press('ArrowRight');
  await expect(counter).toHaveText('1 of 3');
  await dialog.getByRole('button', { name: 'Next image' }).click();
  await dialog.getByRole('button', { name: 'Next image' }).click();
  await dialog.getByRole('button', { name: 'Next image' }).click();
  await expect(name).toHaveText('forest-01.jpg');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Back to All: every picture again.
  await chips.first().click();
  await expect(tiles).toHaveCount(6);
});

test('product: the carousel wraps both ways, by buttons, keys and swipe, and a colour chip shows its own pictures', async ({ page }) => {
  const files = [...(await grouped({ Red: 2, Blue: 3 })), pdf('spec-sheet.pdf', 1)];
  const slug = await publishGrouped(page.request, files, { template: 'product-template' });
  await page.goto(`/${slug}`);
  const showcase = page.locator('[data-carousel]');
  await showcase.scrollIntoViewIfNeeded();
  const shown = showcase.locator('.carousel__slide:not([hidden])');
  const count = showcase.locator('[data-carousel-count]');
  const red = showcase.getByRole('button', { name: 'Red' });
  const blue = showcase.getByRole('button', { name: 'Blue' });

  await expect(red).toHaveAttribute('aria-pressed', 'true');
  await expect(shown).toHaveCount(1);
  await expect(shown).toHaveAttribute('data-name', 'red-01.jpg');
  await expect(count).toHaveText('1 / 2');
  await expect(shown.locator('img')).toHaveJSProperty('complete', true);

  const next = showcase.getByRole('button', { name: 'Next image' });
  const previous = showcase.getByRole('button', { name: 'Previous image' });
  await next.click();
  await expect(shown).toHaveAttribute('data-name', 'red-02.jpg');
  await next.click();
  await expect(shown).toHaveAttribute('data-name', 'red-01.jpg');
  await previous.click();
  await expect(shown).toHaveAttribute('data-name', 'red-02.jpg');

  // The keyboard, on the carousel itself.
  await showcase.getByRole('region', { name: 'Product images' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(shown).toHaveAttribute('data-name', 'red-01.jpg');
  await page.keyboard.press('ArrowLeft');
  await expect(shown).toHaveAttribute('data-name', 'red-02.jpg');

  // The colour: Blue shows the blue pictures, from the first, with a dot each.
  const redSrc = await shown.locator('img').getAttribute('src');
  await blue.click();
  await expect(blue).toHaveAttribute('aria-pressed', 'true');
  await expect(red).toHaveAttribute('aria-pressed', 'false');
  await expect(shown).toHaveAttribute('data-name', 'blue-01.jpg');
  await expect(count).toHaveText('1 / 3');
  await expect(showcase.locator('.carousel__dot')).toHaveCount(3);
  expect(await shown.locator('img').getAttribute('src')).not.toBe(redSrc);
  await expect(shown.locator('img')).toHaveJSProperty('complete', true);
  await expect(showcase.locator('[data-carousel-download]')).toHaveAttribute('href', /mode=download$/);

  // A swipe to the left is 'next'; from the last picture it wraps to the first.
  await showcase.getByRole('button', { name: 'Image 3 of 3' }).click();
  await expect(shown).toHaveAttribute('data-name', 'blue-03.jpg');
  const stage = showcase.locator('.carousel');
  await stage.dispatchEvent('pointerdown', { pointerType: 'touch', clientX: 300, clientY: 200, isPrimary: true });
  await stage.dispatchEvent('pointerup', { pointerType: 'touch', clientX: 120, clientY: 205, isPrimary: true });
  await expect(shown).toHaveAttribute('data-name', 'blue-01.jpg');
  await expect(showcase.locator('.carousel__dot[aria-current="true"]')).toHaveAttribute('aria-label', 'Image 1 of 3');
});
