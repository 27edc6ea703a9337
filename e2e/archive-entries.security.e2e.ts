/**
 * The archive viewer offers only what the server will do: an entry the API refuses to extract
 * on its own (here a zip bomb's: 50 MB of zeros in a few KB) shows a note instead of a download
 * link, stays reachable by keyboard, and 'Download Selected' leaves it out and says so; the
 * whole archive stays downloadable. A refusal at click time (busy, budget spent) is a sentence
 * on the page, never the API's JSON.
 */
import { expect, test } from '@playwright/test';
import { openSiteWhenLive, publish, zip } from './visitor-support.ts';
import { whenPageIdle } from './page-settle.ts';

test.describe.configure({ mode: 'serial' });

const NOTE = 'Too large to download on its own — download the whole archive';

let slug = '';
test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const archive = await zip('delivery.zip', [
    { path: 'notes/readme.txt', data: 'Thank you for the shoot!\n'.repeat(40) },
    { path: 'notes/zeros.bin', data: Buffer.alloc(50 * 1024 ** 2) },
  ]);
  expect(archive.bytes.byteLength).toBeLessThan(1024 ** 2);
  slug = await publish(request, [archive]);
});

test('an entry the server will not extract shows a note and no link; the normal entry downloads', async ({ page }) => {
  const entryRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/entry?')) entryRequests.push(decodeURIComponent(new URL(request.url()).search));
  });
  await page.goto(`/${slug}`);
  const tree = page.getByRole('tree', { name: 'Contents of delivery.zip' });
  await expect(tree).toBeVisible();

  const bomb = tree.getByRole('treeitem', { name: /zeros\.bin/ });
  await expect(bomb).toContainText(NOTE);
  await expect(page.getByRole('link', { name: 'Download zeros.bin' })).toHaveCount(0);
  await expect(bomb.locator('a')).toHaveCount(0);

  const readme = page.getByRole('link', { name: 'Download readme.txt' });
  await expect(readme).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), readme.click()]);
  expect(download.suggestedFilename()).toBe('readme.txt');
  expect((await (await import('node:fs/promises')).readFile((await download.path())!, 'utf8')).startsWith('Thank you for the shoot!')).toBe(true);

  // Keyboard: the row is reachable and says why; Enter downloads nothing and asks nobody.
  await tree.getByRole('treeitem').first().focus();
  await page.keyboard.press('End');
  await expect(bomb).toBeFocused();
  await expect(bomb).toHaveAccessibleDescription(NOTE);
  const before = entryRequests.length;
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.keyboard.press('Enter');
  await whenPageIdle(page);
  expect(downloads).toBe(0);
  expect(entryRequests.length).toBe(before);

  // The whole archive is still offered.
  await expect(page.getByRole('link', { name: 'Download archive delivery.zip' })).toBeVisible();
});

test("'Download Selected' leaves out what only the whole archive holds, and says so", async ({ page }) => {
  await openSiteWhenLive(page, slug, '[role="tree"]');
  const tree = page.getByRole('tree', { name: 'Contents of delivery.zip' });
  await expect(tree).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select notes' }).check();
  await expect(page.getByText('2 selected')).toBeVisible();
  await expect(page.getByText('1 file can only be downloaded with the whole archive')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Selected' }).click()]);
  expect(download.suggestedFilename()).toBe('readme.txt');

  // Only the bomb selected: nothing to download on its own.
  await page.getByRole('button', { name: 'Clear Selection' }).click();
  await page.getByRole('checkbox', { name: 'Select zeros.bin' }).check();
  await expect(page.getByRole('button', { name: 'Download Selected' })).toBeDisabled();
});

test('a refusal at click time (busy, budget spent) is a readable message, not JSON', async ({ page }) => {
  // A click before the archive viewer hydrates is the browser's own download, not the viewer's.
  await openSiteWhenLive(page, slug, '[role="tree"]');
  await expect(page.getByRole('tree', { name: 'Contents of delivery.zip' })).toBeVisible();
  let status = 503;
  await page.route('**/api/files/*/entry?*', (route) =>
    route.fulfill({
      status,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': status === 429 ? '42' : '5' },
      body: JSON.stringify({ success: false, error: 'refused', code: status === 429 ? 'rate_limited' : 'service_unavailable' }),
    }),
  );
  const readme = page.getByRole('link', { name: 'Download readme.txt' });
  await readme.click();
  await expect(page.getByRole('alert')).toHaveText('Too many downloads are being prepared right now. Please try again in a few seconds.');
  status = 429;
  await readme.click();
  await expect(page.getByRole('alert')).toHaveText('Too much was extracted from archives in the last minute. Please try again in 42 seconds.');
  await expect(page.locator('body')).not.toContainText('"success"');
  expect(new URL(page.url()).pathname).toBe(`/${slug}`);
});
