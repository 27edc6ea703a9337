/**
 * An emailed sign-in link opened in a browser that is not its address owner's (login CSRF: someone
 * asks a link for their own address and gets another person to open it): the page names the
 * account it signs in to and does nothing until 'Continue as …' is pressed, and the dashboard it
 * opens offers no claim of the sites that browser made before. Checked at 375 px in dark mode, with
 * the keyboard.
 */
import { expect, test } from '@playwright/test';
import { publishSite } from './engagement-helpers.ts';
import { linkFromOutbox } from './account-support.ts';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('the sign-in link page names the address it signs in to, and the session it opens offers no claim', async ({ browser, baseURL }) => {
  const sender = `sender-${unique()}@studio.test`;
  // The link's owner asks for it (no browser of theirs is involved).
  const asked = await (await browser.newContext()).request.post('/api/auth/email-link', { data: { email: sender }, headers: { Origin: baseURL! } });
  expect(asked.status()).toBe(202);
  const link = await linkFromOutbox(sender, '/sign-in?link=');

  // Another person's phone, which published a site of its own without an account.
  const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, colorScheme: 'dark' });
  await publishSite(phone.request, baseURL!, { title: 'Not the sender’s site', images: [{ name: 'a.jpg', rgb: [40, 120, 90] }] });
  const page = await phone.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Finish signing in', level: 1 })).toBeVisible();
  await expect(page.getByText(`This link signs you in as ${sender}.`)).toBeVisible();
  const proceed = page.getByRole('button', { name: `Continue as ${sender}` });
  // Opening the page signs nothing in: only the button does.
  await expect(proceed).toBeFocused();
  expect(((await (await phone.request.get('/api/auth/session')).json()) as { creator: unknown }).creator).toBeNull();
  // The address fits the phone's width (a long one wraps inside the button).
  const box = await proceed.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
  const session = (await (await phone.request.get('/api/auth/session')).json()) as { creator: { email: string; signedInByLink?: boolean } };
  expect(session.creator).toMatchObject({ email: sender, signedInByLink: true });
  // This browser's own site is not offered to the account the link opened.
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(/You have \d+ sites? to claim/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Claim (Site|All Sites)$/ })).toHaveCount(0);
  await phone.close();
});
