/**
 * Managing a published site in a real Chromium: the owner changes the title and the header layout
 * and sees them on /{slug} (every setting saved by the one Save of the Settings tab), replaces a file
 * (its version shows, the site shows the new one), sets a password and a visitor who had the site
 * open is locked out, then deletes the site, typing its title with an ordinary hyphen, is told
 * 'Site deleted' and the link answers 404.
 * The owner lists the files by name and visitors see them in that order.
 * Screenshots of the Settings tab (1280 and 375 px, light and dark) go to /tmp/shots-manage/.
 */
import { expect, test } from '@playwright/test';
import { makeJpeg, publishSite, quietAnonymousLoop, shootAllWays } from './engagement-helpers.ts';
import { signUpThroughLink } from './account-support.ts';

const SHOTS_DIR = '/tmp/shots-manage';

test('the owner edits, replaces a file, protects and deletes a published site from the dashboard', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const creator = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await quietAnonymousLoop(creator);
  const site = await publishSite(creator.request, baseURL!, {
    title: 'Brand Refresh',
    images: [
      { name: 'logo-v1.jpg', rgb: [40, 90, 160] },
      { name: 'poster.jpg', rgb: [200, 120, 40] },
    ],
  });
  // Its link brings the site along (a session a mailed link opened claims nothing more itself).
  await signUpThroughLink(creator.request, baseURL!, { email: `owner-${Date.now()}@studio.example`, password: 'correct horse battery', name: 'Mara Lind' });
  const list = (await (await creator.request.get('/api/creators/me/projects')).json()) as { projects: Array<{ id: string; slug: string }> };
  const projectId = list.projects.find((p) => p.slug === site.slug)!.id;

  // A visitor has the site open before anything changes.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(site.url);
  await expect(visitor.getByRole('heading', { level: 1 })).toContainText('Brand Refresh');

  const page = await creator.newPage();
  await page.goto(`/dashboard/projects/${projectId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Brand Refresh' })).toBeVisible({ timeout: 20_000 });
  // The tabs' keyboard pattern reaches Settings with End.
  await page.getByRole('tab', { name: 'Overview' }).focus();
  await page.keyboard.press('End');
  const settingsTab = page.getByRole('tab', { name: 'Settings' });
  await expect(settingsTab).toBeFocused();
  await expect(settingsTab).toHaveAttribute('aria-selected', 'true');

  const card = (title: string) => page.locator('.manage-card').filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) });
  const buildLine = page.locator('.manage-build');
  const settings = page.getByRole('form', { name: 'Site settings' });
  // One Save for the whole page: nothing to save until something changed.
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(1);
  const save = settings.getByRole('button', { name: 'Save changes' });
  await expect(save).toBeDisabled();

  // The title, changed and saved with the keyboard, is on the rebuilt site.
  const details = card('Site details');
  await details.getByLabel('Site title').fill('Brand Refresh — Final');
  await details.getByLabel('Site title').press('Enter');
  await expect(settings.getByRole('status')).toHaveText('Saved');
  await expect(save).toBeDisabled();
  await expect(buildLine.getByRole('status')).toHaveText('Your changes are live.', { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Brand Refresh — Final' })).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole('heading', { level: 1 })).toContainText('Brand Refresh — Final');

  // The look every visitor sees: style, a pinned dark mode and the hero layout, after the rebuild.
  const look = card('Look');
  await look.getByRole('radio', { name: 'Elegant' }).check();
  await look.getByRole('radio', { name: 'Dark', exact: true }).check();
  await look.getByRole('radio', { name: 'Split' }).check();
  await save.click();
  await expect(buildLine.getByRole('status')).toHaveText('Your changes are live.', { timeout: 30_000 });
  await visitor.reload();
  await expect(visitor.locator('html')).toHaveAttribute('data-hero-layout', 'split');
  await expect(visitor.locator('html')).toHaveAttribute('data-theme', 'elegant-dark');
  await expect(visitor.getByRole('button', { name: /Switch to (light|dark) mode/ })).toHaveCount(0);
  await expect(visitor.getByText('Visual style')).toHaveCount(0);

  // Replace the first file: same place, new bytes and name, its version shown.
  const files = card('Files');
  const firstFile = files.locator('.manage-file').first();
  await firstFile.locator('input[type=file]').setInputFiles({ name: 'logo-v2.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(900, 600, [20, 160, 90]) });
  await expect(firstFile.locator('.manage-file__name')).toHaveText('logo-v2.jpg');
  await expect(firstFile.locator('.manage-file__version')).toHaveText('Version 2');
  await expect(buildLine.getByRole('status')).toHaveText('Your changes are live.', { timeout: 30_000 });
  // The new bytes' thumbnail, derived by the build.
  await expect(firstFile.locator('.manage-file__thumb img')).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByText('logo-v2.jpg').first()).toBeVisible();
  await expect(visitor.getByText('logo-v1.jpg')).toHaveCount(0);

  // Removing a file asks first; Cancel keeps it.
  const poster = files.locator('.manage-file').filter({ hasText: 'poster.jpg' });
  await poster.getByRole('button', { name: 'Remove poster.jpg' }).click();
  await expect(poster.getByRole('button', { name: 'Remove file' })).toBeFocused();
  await poster.getByRole('button', { name: 'Cancel' }).click();
  await expect(files.locator('.manage-file')).toHaveCount(2);

  await shootAllWays(page, SHOTS_DIR, 'settings');

  // A password: the visitor who had the site open is locked out.
  const password = card('Password');
  await password.getByRole('switch', { name: 'Require a password' }).click();
  // Save waits for a password the server accepts: 8 characters or more.
  await password.getByLabel('Password', { exact: true }).fill('1234567');
  await expect(save).toBeDisabled();
  await password.getByLabel('Password', { exact: true }).fill('12345678');
  await expect(save).toBeEnabled();
  await password.getByLabel('Password', { exact: true }).fill('open sesame 42');
  await save.click();
  await expect(password.getByText('Visitors need the password to open this site.', { exact: false })).toBeVisible();
  await expect(buildLine.getByRole('status')).toHaveText('Your changes are live.', { timeout: 30_000 });
  await visitor.reload();
  // The gate names the site (its title) and says it is protected, in the site's dark mode.
  await expect(visitor.getByRole('heading', { name: 'Brand Refresh — Final' })).toBeVisible();
  await expect(visitor.getByText('This site is password protected.', { exact: false })).toBeVisible();
  await expect(visitor.getByText('logo-v2.jpg')).toHaveCount(0);

  // Delete: only once the title is typed; then the link says, in words, that the site was removed (410).
  const danger = card('Delete site');
  await danger.getByRole('button', { name: 'Delete site…' }).click();
  const confirm = danger.getByLabel(/to confirm/);
  await expect(confirm).toBeFocused();
  await expect(danger.getByRole('button', { name: 'Delete this site' })).toBeDisabled();
  // The title has an em dash; the owner types an ordinary hyphen and extra spaces.
  await confirm.fill('Brand Refresh  -  Final');
  await expect(danger.getByRole('button', { name: 'Delete this site' })).toBeEnabled();
  await shootAllWays(page, SHOTS_DIR, 'settings-delete');
  await danger.getByRole('button', { name: 'Delete this site' }).click();
  await page.waitForURL(/\/dashboard$/);
  await expect(page.getByTestId('toast')).toHaveText('Site deleted');
  await expect(page.getByRole('heading', { name: 'No sites yet' })).toBeVisible();
  const gone = await visitor.goto(site.url);
  expect(gone?.status()).toBe(410);
  await expect(visitor.getByRole('heading', { name: 'This site was removed' })).toBeVisible();

  await visitorContext.close();
  await creator.close();
});

test('the owner lists the files by name: visitors see them in that order', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const creator = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await quietAnonymousLoop(creator);
  const site = await publishSite(creator.request, baseURL!, {
    title: 'Wedding Selects',
    images: [
      { name: 'c-portraits.jpg', rgb: [160, 60, 60] },
      { name: 'a-arrival.jpg', rgb: [60, 160, 60] },
      { name: 'b-ceremony.jpg', rgb: [60, 60, 160] },
    ],
  });
  await signUpThroughLink(creator.request, baseURL!, { email: `order-${Date.now()}@studio.example`, password: 'correct horse battery', name: 'Mara Lind' });
  const list = (await (await creator.request.get('/api/creators/me/projects')).json()) as { projects: Array<{ id: string; slug: string }> };
  const projectId = list.projects.find((p) => p.slug === site.slug)!.id;

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(site.url);
  await expect(visitor.getByRole('link', { name: 'c-portraits.jpg, open image 1 of 3' })).toBeVisible();

  const page = await creator.newPage();
  await page.goto(`/dashboard/projects/${projectId}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  const settings = page.getByRole('form', { name: 'Site settings' });
  await expect(settings.getByLabel('File order')).toHaveValue('upload');
  await settings.getByLabel('File order').selectOption({ label: 'By name' });
  await settings.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('.manage-build').getByRole('status')).toHaveText('Your changes are live.', { timeout: 30_000 });

  await visitor.reload();
  await expect(visitor.getByRole('link', { name: 'a-arrival.jpg, open image 1 of 3' })).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'c-portraits.jpg, open image 3 of 3' })).toBeVisible();
  await page.reload();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(settings.getByLabel('File order')).toHaveValue('name');

  await visitorContext.close();
  await creator.close();
});
