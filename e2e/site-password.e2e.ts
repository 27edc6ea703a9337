/**
 * A password-protected site in a real browser: the password page (the site's title, in the site's mode), a wrong
 * guess, the right one, and the site with its images; another visitor stays locked out.
 */
import { expect, test, type Page } from '@playwright/test';
import { makeJpeg } from './engagement-helpers.ts';

const PASSWORD = 'open sesame 42';
const SHOTS = '/tmp/engagement-server-shots';

async function publishProtectedSite(page: Page, baseURL: string): Promise<string> {
  const form = new FormData();
  form.append('title', 'Private proofs');
  form.append('description', 'For the client only');
  form.append('password', PASSWORD);
  form.append('settings', JSON.stringify({ enableFavorites: true, enableAnalytics: true }));
  form.append('files', new Blob([new Uint8Array(await makeJpeg(900, 600, [180, 90, 60]))], { type: 'image/jpeg' }), 'proof-1.jpg');
  const res = await page.request.post('/api/upload', { multipart: form, headers: { Origin: baseURL } });
  expect(res.status(), await res.text()).toBe(201);
  const { slug } = (await res.json()) as { slug: string };
  await expect.poll(async () => ((await (await page.request.get(`/api/sites/${slug}/status`)).json()) as { status: string }).status, { timeout: 30_000 }).toBe('live');
  return slug;
}

test('a visitor unlocks a password-protected site with its password, and only that visitor', async ({ page, browser, baseURL }) => {
  const slug = await publishProtectedSite(page, baseURL!);

  const locked = await page.goto(`/${slug}`);
  expect(locked?.status()).toBe(401);
  expect(locked?.headers()['cache-control']).toBe('private, no-store');
  // The gate names the site (title, no author here) and says it is protected; none of its files.
  await expect(page.getByRole('heading', { level: 1, name: 'Private proofs' })).toBeVisible();
  await expect(page.getByText('This site is password protected.', { exact: false })).toBeVisible();
  await expect(page.getByText('proof-1.jpg')).toHaveCount(0);
  const field = page.getByLabel('Password');
  await expect(field).toBeFocused();

  await field.fill('not the password');
  await field.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Incorrect password. Please try again.');
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  expect(page.url()).not.toContain('sesame');
  await page.screenshot({ path: `${SHOTS}/e2e-password-wrong-1280.png` });

  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.waitForURL(`**/${slug}`);
  expect(page.url()).not.toContain('sesame');
  await expect(page.getByRole('heading', { name: 'Private proofs' }).first()).toBeVisible();
  // The site's images load: thumbnails and previews are unlocked with the page.
  const image = page.locator('img[src*="/api/files/"]:visible').first();
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await page.screenshot({ path: `${SHOTS}/e2e-unlocked-site-1280.png` });

  // Another visitor (another browser) sees the password page, on a phone.
  const other = await browser.newContext({ viewport: { width: 375, height: 740 }, colorScheme: 'dark' });
  const phone = await other.newPage();
  expect((await phone.goto(`/${slug}`))?.status()).toBe(401);
  await expect(phone.getByRole('heading', { level: 1, name: 'Private proofs' })).toBeVisible();
  await phone.screenshot({ path: `${SHOTS}/e2e-password-375.png` });
  const direct = await phone.request.get(`/api/files/${await image.evaluate((img) => new URL((img as HTMLImageElement).src).pathname.split('/')[3])}?mode=download`);
  expect(direct.status()).toBe(401);
  await other.close();
});
