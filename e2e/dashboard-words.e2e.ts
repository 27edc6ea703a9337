/**
 * The dashboard's words and phone layout, the upsells' manners and the signed-in bell, in a real
 * Chromium: 'site' everywhere a creator reads, no 'Welcome back' for a new account, Create New Site
 * opening the upload wizard, the tab bar and the figures inside a 375 px screen, one prompt at a
 * time for an anonymous creator, and a bell that lists the account's own alerts after sign-up.
 * Screenshots (1280 and 375 px, light and dark) go to /tmp/shots/dash/.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { engageAsVisitor, giveName, publishSite, quietAnonymousLoop, shootAllWays, visitSite } from './engagement-helpers.ts';
import { signUpThroughLink } from './account-support.ts';

const SHOTS_DIR = '/tmp/shots/dash';

/** Whether `inner`'s box lies within `outer`'s (a pixel of rounding allowed). */
async function isInside(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  if (!a || !b) return false;
  return a.x >= b.x - 1 && a.y >= b.y - 1 && a.x + a.width <= b.x + b.width + 1 && a.y + a.height <= b.y + b.height + 1;
}

/** The words a person reads on the page (what is rendered, not hidden text), without the header's and footer's marketing links. */
// biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point; textContent would read hidden text too
const mainText = (page: Page) => page.locator('main').innerText();

test('a new account’s dashboard speaks of sites, fits a phone, opens the wizard and rings with the account’s own alerts', async ({ browser, baseURL }) => {
  test.setTimeout(300_000);
  const creator = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await quietAnonymousLoop(creator);
  const site = await publishSite(creator.request, baseURL!, { title: 'Smith–Jones Wedding', images: [{ name: 'first-dance.jpg', rgb: [120, 80, 60] }] });
  await engageAsVisitor(browser, site, 'We love this one!');

  // Before signing up, the bell of this browser holds the anonymous creator's alerts.
  const page = await creator.newPage();
  await page.goto('/');
  const bell = page.getByRole('button', { name: /^Engagement alerts/ });
  await expect(bell).toHaveAccessibleName('Engagement alerts, 2 unread', { timeout: 20_000 });
  await bell.click();
  const panel = page.getByRole('region', { name: 'Engagement Alerts' });
  // One 'Sign Up Free' at the foot of the list, not one on every alert.
  await expect(panel.getByRole('listitem')).toHaveCount(2);
  await expect(panel.getByText('Sign Up Free')).toHaveCount(1);

  // The mailed link makes the account, signs this browser in and brings the site along.
  await signUpThroughLink(creator.request, baseURL!, { email: `smith-${Date.now()}@studio.example`, password: 'correct horse battery', name: 'Ada Smith' });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ada Smith' })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.dash__count')).toHaveText('1 site');
  const card = page.locator('.dash-card').filter({ hasText: 'Smith–Jones Wedding' });
  await expect(card).toBeVisible();
  expect(await mainText(page)).not.toMatch(/project/i);

  // The bell lists the account's alerts (the anonymous ones are gone), and a new comment once it opens again.
  await expect(bell).toHaveAccessibleName('Engagement alerts, 2 unread', { timeout: 20_000 });
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitSite(visitorPage, site.url);
  const controls = visitorPage.locator('[data-engagement]').first();
  await controls.getByRole('button', { name: /^Comments/ }).click();
  await controls.getByRole('textbox').fill('Can we get this one printed?');
  await controls.getByRole('button', { name: 'Post' }).click();
  // A new visitor names themself once; the comment then goes out by itself.
  await giveName(visitorPage, 'Omar Haddad');
  await expect(controls.locator('.engagement-comment__text')).toHaveText(['We love this one!', 'Can we get this one printed?']);
  await visitor.close();
  await bell.click();
  await expect(panel.getByRole('listitem')).toHaveCount(3, { timeout: 20_000 });
  await expect(panel.getByRole('listitem').first()).toContainText('Can we get this one printed?');
  await expect(panel.getByText('Sign Up Free')).toHaveCount(0);
  await expect(bell).toHaveAccessibleName('Engagement alerts, 3 unread');
  await page.keyboard.press('Escape');

  await shootAllWays(page, SHOTS_DIR, 'dashboard');

  // At 375 px, dark: each count's label inside its tile.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.emulateMedia({ colorScheme: 'dark' });
  for (const item of await card.locator('.dash-counts__item').all()) expect(await isInside(item.locator('.dash-counts__label'), item)).toBe(true);

  // The site's details: the tab bar shows Settings whole, each figure's label sits in its tile, no 'project'.
  await card.getByRole('link', { name: 'View Details' }).click();
  await page.waitForURL(/\/dashboard\/projects\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Smith–Jones Wedding' })).toBeVisible({ timeout: 20_000 });
  const tablist = page.getByRole('tablist', { name: 'Site' });
  const settingsTab = tablist.getByRole('tab', { name: 'Settings' });
  expect(await isInside(settingsTab, tablist)).toBe(true);
  const box = (await settingsTab.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(await tablist.evaluate((list) => list.scrollWidth <= list.clientWidth)).toBe(true);
  const tiles = page.getByTestId('summary-tile');
  await expect(tiles).toHaveCount(5);
  for (const tile of await tiles.all()) expect(await isInside(tile.locator('dt'), tile)).toBe(true);
  // Each figure once: the tiles carry the totals, the Overview the approvals, chart and activity (no second set of totals).
  await expect(page.getByRole('region', { name: 'Site analytics' })).toBeVisible();
  await expect(page.locator('main .dash-stats, main .dash-totals')).toHaveCount(0);
  // The file's type in words, its size in the one format.
  await page.getByRole('tab', { name: 'Files' }).click();
  await expect(page.locator('.dash-file__meta').first()).toContainText(/JPEG image · [\d.]+ (Bytes|KB|MB)/);
  for (const tab of ['Overview', 'Files', 'Engagement', 'Settings']) {
    await tablist.getByRole('tab', { name: tab }).click();
    expect(await mainText(page), tab).not.toMatch(/project/i);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await tablist.getByRole('tab', { name: 'Overview' }).click();
  await shootAllWays(page, SHOTS_DIR, 'site-details');
  await tablist.getByRole('tab', { name: 'Settings' }).click();
  await shootAllWays(page, SHOTS_DIR, 'site-settings');

  // Create New Site opens the upload wizard in the dashboard, not the marketing page.
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Create New Site' }).click();
  await page.waitForURL(/\/dashboard\/new$/);
  await expect(page.locator('#upload')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('#upload').getByText('Choose Files').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: /Send your work as a site/ })).toHaveCount(0);
  await shootAllWays(page, SHOTS_DIR, 'new-site');
  await creator.close();
});

test('a returning anonymous creator is asked one thing at a time, never over a form, and a dismissal is remembered', async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  const creator = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Back after two days.
  await creator.addInitScript(() => {
    if (window.localStorage.getItem('dropsite.lastVisit') === null) window.localStorage.setItem('dropsite.lastVisit', String(Date.now() - 2 * 86_400_000));
  });
  const site = await publishSite(creator.request, baseURL!, { title: 'Harbour Lights', images: [{ name: 'pier.jpg', rgb: [30, 60, 120] }] });
  await engageAsVisitor(browser, site, 'The blue hour one is perfect.');

  const page = await creator.newPage();
  await page.goto('/');
  const modal = page.getByRole('dialog', { name: 'Someone just engaged with your site' });
  await expect(modal).toBeVisible();
  // One prompt at a time: no teaser while the modal asks.
  await expect(page.locator('.teaser-card')).toHaveCount(0);
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Nothing else asks on this page: the alerts wait in the bell.
  await expect(page.getByRole('button', { name: /^Engagement alerts/ })).toHaveAccessibleName('Engagement alerts, 2 unread');
  await expect(page.locator('.teaser-card')).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The next page: the dismissal is remembered; the teaser sits in the page, below the upload, not over it.
  await page.reload();
  const teaser = page.getByRole('complementary').filter({ hasText: 'interactions on your sites' });
  await expect(teaser).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(teaser.getByRole('heading')).toHaveText('2 interactions on your sites');
  // Its per-site figures are an account's: not in the page at all, blurred or not.
  await expect(teaser.locator('dl, dd')).toHaveCount(0);
  // biome-ignore lint/performance/useDomNodeTextContent: what the card shows
  expect(await teaser.innerText()).not.toMatch(/\bViews\b|\bFavourites\b/);
  const upload = (await page.locator('#upload').boundingBox())!;
  const card = (await teaser.boundingBox())!;
  expect(card.y).toBeGreaterThanOrEqual(upload.y + upload.height);
  await shootAllWays(page, SHOTS_DIR, 'landing-teaser');
  await page.setViewportSize({ width: 375, height: 812 });
  const phoneUpload = (await page.locator('#upload').boundingBox())!;
  expect((await teaser.boundingBox())!.y).toBeGreaterThanOrEqual(phoneUpload.y + phoneUpload.height);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The sign-up page, in a new tab (a new browser session): no prompt, no teaser over its form.
  const signUp = await creator.newPage();
  await signUp.goto('/sign-in?mode=sign-up');
  await signUp.getByLabel('Your name').fill('Ada Smith');
  await signUp.waitForLoadState('networkidle');
  await expect(signUp.getByRole('dialog')).toHaveCount(0);
  await expect(signUp.locator('.teaser-card')).toHaveCount(0);
  await signUp.getByLabel('Email address').fill('ada@studio.example');
  await expect(signUp.getByLabel('Your name')).toHaveValue('Ada Smith');
  await shootAllWays(signUp, SHOTS_DIR, 'sign-up');
  await creator.close();
});
