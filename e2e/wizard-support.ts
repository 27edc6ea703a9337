/** Shared steps of the wizard's browser tests. */
import { expect, type FrameLocator, type Page } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { sha256 as sha256Of } from '@dropsite/testkit/bytes';

export async function makeJpeg(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Three photos; `seed` gives each test its own bytes, as separate deliveries would have. */
export async function threeImages(seed = 0) {
  return [
    { name: 'golden-hour_portrait.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(1200, 800, [214, 160, 90 + seed]) },
    { name: 'ceremony.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(800, 1200, [70, 110, 160 + seed]) },
    { name: 'first-dance.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(1600, 900, [150, 80, 120 + seed]) },
  ];
}

/** On the published site at `siteUrl`, downloads its first file and expects its bytes to hash to `sha256`. */
export async function expectFirstFileDownloadHash(page: Page, siteUrl: string, sha256: string): Promise<void> {
  const downloadLink = page.locator('a[href*="mode=download"]').first();
  await expect(downloadLink).toBeAttached({ timeout: 30_000 });
  const response = await page.request.get(new URL((await downloadLink.getAttribute('href'))!, siteUrl).toString());
  expect(response.status()).toBe(200);
  expect(sha256Of(await response.body())).toBe(sha256);
}

/** From the upload step (files chosen) to the engagement features step, with a description filled in. */
export async function walkToFeatures(page: Page, description = 'Ceremony, portraits and the first dance.') {
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: /Choose a template/ })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: /Site details/ })).toBeVisible();
  await page.getByLabel(/^Description/).fill(description);
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await expect(page.getByRole('heading', { name: 'Client Engagement Features' })).toBeVisible();
}

/** From the upload step (files chosen) to the open preview, with a description filled in. */
export async function walkToPreview(page: Page, description = 'Ceremony, portraits and the first dance.') {
  await walkToFeatures(page, description);
  await page.getByRole('button', { name: 'Preview Site' }).click();
  await expect(page.getByText('Preview Mode - This is how visitors will see your site')).toBeVisible();
}

/** From the open preview: publishes, waits for the success view and answers the site's address as it shows it. */
export async function publishFromPreview(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Publish Site' }).click();
  await expect(page.getByRole('heading', { name: 'Your site has been created!' })).toBeVisible();
  const url = page.getByTestId('site-url');
  await expect(url).toHaveValue(/^http:\/\/localhost:\d+\/[a-z0-9]{8,}$/, { timeout: 30_000 });
  return url.inputValue();
}

/**
 * The engagement feature's email prompt may open a few seconds after a publish (spec 4: a
 * return_visit prompt 3 s after an upload); a creator closes it with Escape and carries on.
 */
export async function closeEmailPromptWhenShown(page: Page) {
  await page.addLocatorHandler(page.locator('dialog.email-modal[open]'), async () => {
    await page.keyboard.press('Escape');
  });
}

/**
 * A 120 MB file (30 blocks of 4 MiB, each different so a misplaced chunk changes the hash) in the
 * test's output folder: large enough for the direct-chunked path. Answers its path and SHA-256.
 */
export async function writeLargeFile(outputDir: string, name: string): Promise<{ file: string; sha256: string }> {
  await mkdir(outputDir, { recursive: true });
  const file = path.join(outputDir, name);
  const handle = await open(file, 'w');
  const hash = createHash('sha256');
  const block = randomBytes(4 * 1024 * 1024);
  try {
    for (let i = 0; i < 30; i++) {
      block[0] = i;
      await handle.write(block);
      hash.update(block);
    }
  } finally {
    await handle.close();
  }
  return { file, sha256: hash.digest('hex') };
}

/** The preview's gallery lazy-loads; loaded eagerly, at least one image decodes from the creator's local files (blob: URLs). */
export async function expectPreviewImageDecoded(frame: FrameLocator): Promise<void> {
  const previewImages = frame.locator('img[src^="blob:"]');
  await expect
    .poll(
      () =>
        previewImages.evaluateAll((imgs: HTMLImageElement[]) =>
          imgs
            .map((img) => {
              img.loading = 'eager';
              return img.complete && img.naturalWidth > 0;
            })
            .some(Boolean),
        ),
      { timeout: 10_000 },
    )
    .toBe(true);
}
