import { expect, test } from '@playwright/test';
import { closeEmailPromptWhenShown, expectPreviewImageDecoded, publishFromPreview, threeImages, walkToPreview } from './wizard-support.ts';

test('a creator publishes three files through every wizard step, previews, copies the link and opens the site', async ({ page, context }) => {
  test.setTimeout(150_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const images = await threeImages(11);
  await closeEmailPromptWhenShown(page);
  await page.goto('/');
  await page.evaluate(() => {
    (window as unknown as { published: unknown[] }).published = [];
    window.addEventListener('dropsite:published', (e) => (window as unknown as { published: unknown[] }).published.push((e as CustomEvent).detail));
  });

  // Upload: any files, several at once; the size rule picks the regular request.
  await page.getByTestId('file-input').setInputFiles(images);
  for (const image of images) await expect(page.getByText(image.name)).toBeVisible();
  await expect(page.getByTestId('upload-mode-badge')).toHaveText('Standard Upload');
  await expect(page.getByTestId('upload-mode-explanation')).toHaveText('Your files are small enough to send in one go.');

  // Template: the chosen files, a 'View Files' dialog, Universal chosen by default.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('radio', { name: /Universal/ })).toBeChecked();
  await page.getByRole('button', { name: 'View Files' }).click();
  const dialog = page.getByRole('dialog', { name: /Your files/ });
  await expect(dialog.getByText('first-dance.jpg')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('radio', { name: /Photo Gallery/ }).check();

  // Back keeps the files; the title was filled in from the first file name.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByText('ceremony.jpg')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('radio', { name: /Photo Gallery/ })).toBeChecked();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel(/^Site Title/)).toHaveValue('Golden Hour Portrait');
  await page.getByLabel(/^Author Name/).fill('Ana Ruiz');
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel(/^Author Name/)).toHaveValue('Ana Ruiz');

  // Settings: analytics on by default, favourites on for the Photo Gallery; without an account, notifications
  // wait for an address to go to.
  await page.getByLabel(/^Description/).fill('Ceremony, portraits and the first dance.');
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await expect(page.getByRole('switch', { name: /Analytics/ })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('switch', { name: /Favorites/ })).toHaveAttribute('aria-checked', 'true');
  const notifications = page.getByRole('switch', { name: /Notifications/ });
  await expect(notifications).toBeDisabled();
  await page.getByLabel('Notification email').fill('ana@studio.example');
  await expect(notifications).toBeEnabled();
  await page.getByLabel('Notification email').fill('');
  await expect(notifications).toBeDisabled();
  await expect(notifications).toHaveAttribute('aria-checked', 'false');

  // Preview: the real template with the creator's local files; Escape goes back to the details.
  await page.getByRole('button', { name: 'Preview Site' }).click();
  await expect(page.getByText('Preview Mode - This is how visitors will see your site')).toBeVisible();
  const frame = page.frameLocator('[data-testid="preview-frame"]');
  await expect(frame.getByRole('heading', { level: 1, name: 'Golden Hour Portrait' })).toBeVisible({ timeout: 15_000 });
  for (const image of images) await expect(frame.locator(`img[alt="${image.name}"][src^="blob:"]`).first()).toBeAttached();
  await expectPreviewImageDecoded(frame);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: /Site details/ })).toBeVisible();
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await page.getByRole('button', { name: 'Preview Site' }).click();

  // Publish: straight to the success view, the link, the QR code, the copy confirmation for 2 s.
  const siteUrl = await publishFromPreview(page);
  const qr = page.getByTestId('qr-code');
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(siteUrl);
  await expect(page.getByRole('button', { name: 'Copy', exact: true })).toBeVisible({ timeout: 3000 });
  const published = await page.evaluate(() => (window as unknown as { published: { slug: string; url: string }[] }).published);
  expect(published).toEqual([{ slug: siteUrl.split('/').pop(), url: siteUrl }]);

  const [site] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'View Your Site' }).click()]);
  await expect(site).toHaveURL(siteUrl);
  await expect(site.getByRole('heading', { level: 1, name: 'Golden Hour Portrait' })).toBeVisible({ timeout: 30_000 });
  for (const image of images) await expect(site.locator(`img[src*="size=300"][alt="${image.name}"]`).first()).toBeAttached({ timeout: 30_000 });
  await site.close();

  // 'Create Another Site' starts over with the universal template and an empty form.
  await page.getByRole('button', { name: 'Create Another Site' }).click();
  await expect(page.getByRole('heading', { name: /Add your files/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await page.getByTestId('file-input').setInputFiles([images[1]!]);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('radio', { name: /Universal/ })).toBeChecked();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel(/^Site Title/)).toHaveValue('Ceremony');
  await expect(page.getByLabel(/^Description/)).toHaveValue('');
  await expect(page.getByLabel(/^Author Name/)).toHaveValue('');
});

test('a failed publish shows an alert and returns to the upload step with the files and the form kept', async ({ page }) => {
  const images = await threeImages(22);
  await closeEmailPromptWhenShown(page);
  await page.route('**/api/upload', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, error: 'Storage is unavailable', code: 'internal' }) }),
  );
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles(images);
  await walkToPreview(page, 'Kept after a failure');
  await page.getByRole('button', { name: 'Publish Site' }).click();

  const alert = page.getByRole('alertdialog');
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('heading', { name: 'Upload failed. Please try again.' })).toBeVisible();
  await expect(alert).toContainText('Storage is unavailable');
  await alert.getByRole('button', { name: 'OK' }).click();
  await expect(alert).toBeHidden();

  await expect(page.getByRole('heading', { name: /Add your files/ })).toBeVisible();
  for (const image of images) await expect(page.getByText(image.name)).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel(/^Site Title/)).toHaveValue('Golden Hour Portrait');
  await expect(page.getByLabel(/^Description/)).toHaveValue('Kept after a failure');

  // The server is back: the same files publish on the next try.
  await page.unroute('**/api/upload');
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await page.getByRole('button', { name: 'Preview Site' }).click();
  await page.getByRole('button', { name: 'Publish Site' }).click();
  await expect(page.getByTestId('site-url')).toHaveValue(/\/[a-z0-9]{8,}$/, { timeout: 30_000 });
});
