import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';

async function makeJpeg(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

test('a creator drops three images, lands on the published site and a visitor downloads one byte for byte', async ({ page }) => {
  const images = [
    { name: 'golden-hour_portrait.jpg', type: 'image/jpeg', bytes: await makeJpeg(1200, 800, [214, 160, 90]) },
    { name: 'ceremony.jpg', type: 'image/jpeg', bytes: await makeJpeg(800, 1200, [70, 110, 160]) },
    { name: 'first-dance.jpg', type: 'image/jpeg', bytes: await makeJpeg(1600, 900, [150, 80, 120]) },
  ];

  await page.goto('/');
  const dataTransfer = await page.evaluateHandle(
    (files) => {
      const dt = new DataTransfer();
      for (const f of files) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        dt.items.add(new File([bytes], f.name, { type: f.type }));
      }
      return dt;
    },
    images.map((i) => ({ name: i.name, type: i.type, base64: i.bytes.toString('base64') })),
  );
  const dropzone = page.getByTestId('dropzone');
  await dropzone.dispatchEvent('dragenter', { dataTransfer });
  await dropzone.dispatchEvent('dragover', { dataTransfer });
  await dropzone.dispatchEvent('drop', { dataTransfer });

  for (const image of images) await expect(page.getByText(image.name)).toBeVisible();

  // The wizard: template, details (the title is suggested from the first file name by the
  // spec's rule; a description is required), features, preview, publish.
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel(/^Site Title/)).toHaveValue('Golden Hour Portrait');
  await page.getByLabel(/^Description/).fill('Portraits, ceremony and the first dance');
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await page.getByRole('button', { name: 'Preview Site' }).click();
  await page.getByRole('button', { name: 'Publish Site' }).click();
  const siteUrl = page.getByTestId('site-url');
  await expect(siteUrl).toHaveValue(/\/[a-z0-9]{8,}$/, { timeout: 30_000 });
  await page.goto(await siteUrl.inputValue());

  // The site may still be building; its holding page refreshes by itself.
  const thumbnails = page.locator('#gallery img[src*="size=300"]');
  await expect(thumbnails).toHaveCount(3, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Golden Hour Portrait' })).toBeVisible();
  for (const img of await thumbnails.all()) {
    await expect(img).toHaveJSProperty('complete', true);
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  }

  // A visitor opens the second photo in the lightbox and downloads the original from there.
  await page.getByRole('link', { name: /^ceremony\.jpg, open image 2 of 3/ }).click();
  const downloadLink = page.getByRole('dialog').getByRole('link', { name: /Download ceremony\.jpg/ });
  const [download] = await Promise.all([page.waitForEvent('download'), downloadLink.click()]);
  const savedPath = await download.path();
  const saved = await readFile(savedPath);
  const original = images.find((i) => i.name === download.suggestedFilename());
  expect(original, `downloaded ${download.suggestedFilename()}`).toBeDefined();
  expect(saved.equals(original!.bytes)).toBe(true);
});
