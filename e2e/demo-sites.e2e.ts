/**
 * The demo sites: one per template, at the catalogue's demo paths, built from the sample projects
 * in scripts/src/demo/ by the same builder and template as a creator's site. This suite's server
 * starts with an empty database, so the API process builds them in the background at start-up;
 * each test first waits for its demo to be live.
 */
import { expect, test, type Page } from '@playwright/test';
import { TEMPLATE_CATALOGUE, TEMPLATE_IDS } from '@dropsite/shared';
import { moveThePointer } from './visitor-support.ts';

/** Long enough for a fresh server to draw the samples and build all eight on a busy machine. */
const DEMO_READY_MS = 240_000;

async function waitForDemo(page: Page, path: string): Promise<void> {
  await expect.poll(async () => (await page.request.get(path, { maxRedirects: 0 })).status(), { timeout: DEMO_READY_MS, intervals: [1_000, 2_000, 3_000] }).toBe(200);
}

for (const id of TEMPLATE_IDS) {
  const { demoPath, name } = TEMPLATE_CATALOGUE[id];
  test(`${demoPath} is the ${name} template's demo site, with every picture loaded`, async ({ page }) => {
    test.setTimeout(DEMO_READY_MS + 60_000);
    await waitForDemo(page, demoPath);
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400 && ['image', 'document', 'media', 'script', 'stylesheet'].includes(response.request().resourceType()))
        failed.push(`${response.status()} ${response.url()}`);
    });
    const response = await page.goto(demoPath);
    expect(response?.status()).toBe(200);
    await expect(page.locator('[data-template]').first()).toHaveAttribute('data-template', id);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // Every picture arrives and decodes, lazy ones too (those of hidden slides included): each is made eager.
    const images = page.locator('img');
    expect(await images.count()).toBeGreaterThan(0);
    await images.evaluateAll((all) => {
      for (const img of all) (img as HTMLImageElement).loading = 'eager';
    });
    await expect.poll(() => images.evaluateAll((all) => all.filter((img) => !(img as HTMLImageElement).complete).length), { timeout: 30_000 }).toBe(0);
    const broken = await images.evaluateAll((all) => all.filter((img) => (img as HTMLImageElement).naturalWidth === 0).map((img) => (img as HTMLImageElement).currentSrc));
    expect(broken).toEqual([]);
    expect(failed).toEqual([]);
  });
}

test('/photo-gallery: eight photographs in four categories, the lightbox wraps from the first to the last and back', async ({ page }) => {
  test.setTimeout(DEMO_READY_MS + 60_000);
  await waitForDemo(page, '/photo-gallery');
  await page.goto('/photo-gallery');
  // The gallery's island hydrates once in view and the visitor has moved.
  await page.locator('.gallery-viewer').scrollIntoViewIfNeeded();
  await moveThePointer(page);
  await page
    .locator('astro-island:not([ssr])', { has: page.locator('.gallery-viewer') })
    .first()
    .waitFor({ state: 'attached' });
  const tiles = page.locator('.gallery-viewer .gv-tile');
  await expect(tiles).toHaveCount(8);

  await tiles.first().click();
  const dialog = page.getByRole('dialog');
  const counter = dialog.locator('.lightbox__counter');
  await expect(counter).toHaveText('1 of 8');
  await dialog.getByRole('button', { name: 'Previous image' }).click();
  await expect(counter).toHaveText('8 of 8');
  await dialog.getByRole('button', { name: 'Next image' }).click();
  await expect(counter).toHaveText('1 of 8');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The folders the photographs were dropped in are the gallery's categories.
  const chips = page.getByRole('group', { name: 'Filter by category' });
  await expect(chips.getByRole('button')).toHaveText([/^All\s*8$/, /^Portraits\s*2$/, /^Ceremony\s*2$/, /^Reception\s*2$/, /^Details\s*2$/]);
  await chips.getByRole('button', { name: /^Ceremony/ }).click();
  await expect(chips.getByRole('button', { name: /^Ceremony/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(tiles).toHaveCount(2);
  await tiles.first().click();
  await expect(counter).toHaveText('1 of 2');
  await page.keyboard.press('Escape');
  await chips.getByRole('button', { name: /^All/ }).click();
  await expect(tiles).toHaveCount(8);
});
