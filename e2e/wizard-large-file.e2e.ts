import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { expectFirstFileDownloadHash, writeLargeFile } from './wizard-support.ts';

test('a 120 MB file takes the direct-chunked path with its badge and publishes byte for byte', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const { file, sha256: expected } = await writeLargeFile(testInfo.outputDir, 'brand-film_master.mov');

  const chunkRequests: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && /direct-upload|upload-chunk/.test(r.url())) chunkRequests.push(new URL(r.url()).pathname);
  });

  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByText('brand-film_master.mov')).toBeVisible();
  await expect(page.getByTestId('upload-mode-badge')).toHaveText('Ultra-Fast Chunked Mode');

  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel(/^Site Title/)).toHaveValue('Brand Film Master');
  await page.getByLabel(/^Description/).fill('Master file for review');
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await page.getByRole('button', { name: 'Preview Site' }).click();
  await page.getByRole('button', { name: 'Publish Site' }).click();

  // The overlay shows the mode, the file's progress and a tip while the chunks go up.
  const overlay = page.getByRole('dialog', { name: 'Almost done...' });
  await expect(overlay).toBeVisible();
  await expect(overlay.getByTestId('upload-mode-badge')).toHaveText('Ultra-Fast Chunked Mode');
  await expect(overlay.getByText('brand-film_master.mov')).toBeVisible();

  await expect(page.getByTestId('site-url')).toHaveValue(/\/[a-z0-9]{8,}$/, { timeout: 150_000 });
  await expect(overlay).toBeHidden();
  expect(chunkRequests[0]).toBe('/api/direct-upload/init');
  expect(chunkRequests.at(-1)).toBe('/api/direct-upload/complete');
  expect(chunkRequests.filter((p) => !p.endsWith('/init') && !p.endsWith('/urls') && !p.endsWith('/complete')).length).toBe(12);

  // The published original is the very file chosen.
  const siteUrl = await page.getByTestId('site-url').inputValue();
  await page.goto(siteUrl);
  await expectFirstFileDownloadHash(page, siteUrl, expected);
  expect((await readFile(file)).length).toBe(120 * 1024 * 1024);
});
