/**
 * A photographer's day, end to end in a real Chromium: she signs up through the mailed link, starts
 * her Pro trial, and publishes a wedding gallery from the dashboard's Create New Site with a look of
 * her choosing (Photo Gallery, Elegant, following each visitor's light or dark setting, the Split
 * hero) and notifications on, which go to her confirmed address. Her client opens the link on a
 * phone in dark mode: the site is dark from the first paint with no design controls; she names
 * herself once, favourites one picture and approves another in the lightbox. The photographer gets
 * the email, and her dashboard names the client and counts one approval, no change request and two
 * pictures still pending. Screenshots of each screen (1280 px light and 375 px dark) go to
 * /tmp/shots/photographer-day/.
 */
import { expect, test } from '@playwright/test';
import { expectCardCounts, interactionsMailedTo, signUpThroughLink } from './account-support.ts';
import { giveName, quietAnonymousLoop, shootAllWays } from './engagement-helpers.ts';
import { publishFromPreview, threeImages } from './wizard-support.ts';

const SHOTS_DIR = '/tmp/shots/photographer-day';
const TITLE = 'Harper & Cole Wedding';
const CLIENT = 'Lena Park';

test('a photographer publishes a gallery with her look, her client names herself and reviews on a phone in dark mode, and the photographer is told and sees it all', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const email = `mara-${Date.now()}@studio.example`;

  // Sign up through the mailed link (the address is confirmed by it) and start the Pro trial.
  const studio = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await quietAnonymousLoop(studio);
  await signUpThroughLink(studio.request, baseURL!, { email, password: 'correct horse battery', name: 'Mara Lind' });
  const page = await studio.newPage();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome, Mara/ })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('region', { name: 'Try Pro free for 14 days' }).getByRole('button', { name: 'Start Free Trial' }).click();
  await page.getByRole('dialog', { name: 'Free Trial Started' }).getByRole('button', { name: 'Get Started' }).click();

  // Create New Site opens the wizard, not the marketing page.
  await page.getByRole('link', { name: 'Create New Site' }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/new$/);
  await page.getByTestId('file-input').setInputFiles(await threeImages(7));
  await page.getByRole('button', { name: 'Continue' }).click();

  // The template step: pictures of each template, then the look she wants.
  await expect(page.getByRole('heading', { name: /Choose a template/ })).toBeVisible();
  await expect(page.locator('.template-card picture img')).toHaveCount(8);
  await page.getByRole('radio', { name: /Photo Gallery/ }).check();
  await page.getByRole('group', { name: 'Visual style' }).getByRole('radio', { name: 'Elegant' }).check();
  await page
    .getByRole('group', { name: 'Light or dark' })
    .getByRole('radio', { name: /Automatic/ })
    .check();
  await page.getByRole('group', { name: 'Hero layout' }).getByRole('radio', { name: 'Split' }).check();
  await shootAllWays(page, SHOTS_DIR, 'wizard-template');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Details: a camera-free title she types; the description is optional.
  await page.getByLabel(/^Site Title/).fill(TITLE);
  await page.getByLabel(/^Author Name/).fill('Mara Lind');
  await page.getByRole('button', { name: 'Configure Features' }).click();

  // Features: favourites are on for a gallery; she turns approvals on; notifications go to her address.
  await expect(page.getByRole('heading', { name: 'Client Engagement Features' })).toBeVisible();
  await expect(page.getByRole('switch', { name: /^Favorites/ })).toHaveAttribute('aria-checked', 'true');
  const approvals = page.getByRole('switch', { name: /^Approvals/ });
  if ((await approvals.getAttribute('aria-checked')) !== 'true') await approvals.click();
  const notifications = page.getByRole('switch', { name: /^Notifications/ });
  if ((await notifications.getAttribute('aria-checked')) !== 'true') await notifications.click();
  await expect(notifications).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('notification-recipient')).toContainText(`Notifications go to ${email}`);
  await shootAllWays(page, SHOTS_DIR, 'wizard-features');
  await page.getByRole('button', { name: 'Preview Site' }).click();
  const siteUrl = await publishFromPreview(page);
  const slug = siteUrl.split('/').pop()!;
  await expect.poll(async () => ((await (await studio.request.get(`/api/sites/${slug}/status`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe('live');

  // The client, on a phone in dark mode: the site follows her setting from the first paint, in the chosen style and layout.
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, colorScheme: 'dark' });
  const client = await phone.newPage();
  await client.goto(siteUrl);
  const html = client.locator('html');
  await expect(html).toHaveAttribute('data-style', 'elegant');
  await expect(html).toHaveAttribute('data-color-mode', 'auto');
  await expect(html).toHaveAttribute('data-hero-layout', 'split');
  const background = await client.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
  expect((r ?? 255) + (g ?? 255) + (b ?? 255), background).toBeLessThan(3 * 80);
  // No design controls for visitors.
  await expect(client.getByRole('button', { name: /Visual style|Hero layout/ })).toHaveCount(0);
  await client.screenshot({ path: `${SHOTS_DIR}/client-site-375-dark.png`, fullPage: true });

  // She opens the first picture, favourites it (asked her name once), then approves the second.
  await client.getByRole('link', { name: /^golden-hour_portrait\.jpg, open image 1 of 3/ }).tap();
  const first = client.getByRole('dialog', { name: /golden-hour_portrait\.jpg/ });
  await expect(first).toBeVisible();
  const firstFeedback = first.getByRole('group', { name: 'Feedback on golden-hour_portrait.jpg' });
  await firstFeedback.getByRole('button', { name: 'Favourite' }).tap();
  await giveName(client, CLIENT, 'lena@client.example');
  await expect(firstFeedback.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'true');
  await client.screenshot({ path: `${SHOTS_DIR}/client-lightbox-375-dark.png` });
  await client.keyboard.press('ArrowRight');
  const second = client.getByRole('dialog', { name: /ceremony\.jpg/ });
  await expect(second).toBeVisible();
  const secondFeedback = second.getByRole('group', { name: 'Feedback on ceremony.jpg' });
  await secondFeedback.getByRole('button', { name: 'Approve' }).tap();
  await expect(secondFeedback.getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-pressed', 'true');
  // Not asked again: the name is remembered on this device.
  await expect(client.getByRole('dialog', { name: 'What’s your name?' })).toHaveCount(0);
  await phone.close();

  // The photographer's confirmed address gets the email: both interactions, in one message or a few.
  await expect.poll(() => interactionsMailedTo(email, TITLE), { timeout: 30_000 }).toBe(2);

  // Her dashboard names the client and counts right: one approval, no change request, two pictures pending.
  await page.goto('/dashboard');
  const card = page.locator('.dash-card').filter({ hasText: TITLE });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expectCardCounts(card, { Approved: '1', 'Changes Requested': '0', Pending: '2', Favourites: '1' });
  await expect(page.getByText(/project/i)).toHaveCount(0);
  await shootAllWays(page, SHOTS_DIR, 'dashboard');

  await card.getByRole('link', { name: 'View Details' }).click();
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Files' }).click();
  const stateOf = (name: string) => page.locator('.dash-file').filter({ hasText: name }).getByTestId('file-approval-state');
  await expect(stateOf('ceremony.jpg')).toHaveText('Approved');
  await expect(stateOf('golden-hour_portrait.jpg')).toHaveText('Not reviewed');
  const row = page.locator('.dash-file').filter({ hasText: 'ceremony.jpg' });
  await row.getByRole('button', { name: /ceremony\.jpg/ }).click();
  await expect(row.getByRole('region', { name: 'Approvals of ceremony.jpg' })).toContainText(`${CLIENT}`);
  const favourite = page.locator('.dash-file').filter({ hasText: 'golden-hour_portrait.jpg' });
  await favourite.getByRole('button', { name: /golden-hour_portrait\.jpg/ }).click();
  await expect(favourite.locator('.dash-visitor__name').first()).toHaveText(CLIENT);
  await expect(page.getByText(/User [A-Za-z0-9_-]{4}\b/)).toHaveCount(0);
  await shootAllWays(page, SHOTS_DIR, 'site-files');
  await studio.close();
});
