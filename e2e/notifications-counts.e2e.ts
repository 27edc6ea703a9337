/**
 * Notifications that arrive, counts that are right, covers on the dashboard, in a real Chromium:
 * a creator publishes two sites (one behind a password, expiring in 3 days), then signs up through
 * the mailed link, which brings both sites into the account. Visitors comment, favourite, approve,
 * ask for changes and open a picture full screen; the account's confirmed address receives the
 * email; the dashboard's card counts approvals and change requests apart with the files still
 * pending, the Files tab shows each file's state and views, the settings say who receives the
 * notifications, and the locked site's card shows its cover with its badges.
 * Screenshots (1280 px light, 375 px dark) go to /tmp/shots/loop/.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectCardCounts, interactionsMailedTo, signUpThroughLink } from './account-support.ts';
import { ALL_ENGAGEMENT, giveName, publishSite, quietAnonymousLoop, visitSite } from './engagement-helpers.ts';
import { threeImages, walkToFeatures } from './wizard-support.ts';

const SHOTS_DIR = '/tmp/shots/loop';
const TITLE = 'Loop Review';
const IMAGES = [
  { name: 'photo-1.jpg', rgb: [40, 90, 160] as [number, number, number] },
  { name: 'photo-2.jpg', rgb: [160, 90, 40] as [number, number, number] },
  { name: 'photo-3.jpg', rgb: [60, 140, 80] as [number, number, number] },
];

/** Screenshots taken by `shoot` at 1280 px light and at 375 px dark, each to its own file; the page is back at 1280 px light after. */
async function shootTwoWays(page: Page, name: string, shoot: (path: string) => Promise<unknown>): Promise<void> {
  for (const [width, colorScheme] of [
    [1280, 'light'],
    [375, 'dark'],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme });
    await shoot(`${SHOTS_DIR}/${name}-${width}-${colorScheme}.png`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The whole page at 1280 px light and 375 px dark. */
async function shootPage(page: Page, name: string): Promise<void> {
  await shootTwoWays(page, name, (path) => page.screenshot({ path, fullPage: true }));
}

/** The wizard's card alone, 1280 px light and 375 px dark: the page around it is the landing page's. */
async function shootWizard(page: Page, name: string): Promise<void> {
  await shootTwoWays(page, name, (path) => page.locator('.wizard').first().screenshot({ path }));
}

/** A visitor's feedback controls of one picture, in the lightbox the picture's tile opens. */
async function openPicture(page: Page, name: string) {
  await page.getByRole('link', { name: new RegExp(`^${name.replace('.', '\\.')}, open image`) }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('notifications reach the account address; the dashboard counts approvals, change requests, pending files and views; locked sites keep their covers', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const email = `anna-${Date.now()}@studio.example`;
  const creator = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await quietAnonymousLoop(creator);
  // Anonymous, notifications need an address of the site's own: the creator gives the one they sign up with.
  const site = await publishSite(creator.request, baseURL!, {
    title: TITLE,
    images: IMAGES,
    settings: { ...ALL_ENGAGEMENT, enableNotifications: true, notificationEmail: email },
  });
  const threeDays = new Date(Date.now() + 3 * 86_400_000 + 3_600_000).toISOString();
  await publishSite(creator.request, baseURL!, {
    title: 'Private Proofs',
    images: [{ name: 'proof.jpg', rgb: [200, 60, 90] }],
    fields: { password: 'open sesame 42', expiryDate: threeDays },
  });
  // Without an address the server refuses to switch notifications on.
  const refused = await creator.request.post('/api/upload', {
    multipart: { title: 'Nobody to tell', settings: JSON.stringify({ enableNotifications: true }) },
    headers: { Origin: baseURL! },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { error: string }).error).toMatch(/^Notifications need an email address/);

  // The mailed link confirms the account's address and brings both sites into the account.
  await signUpThroughLink(creator.request, baseURL!, { email, password: 'correct horse battery', name: 'Anna Berg' });

  // A visitor favourites, comments on and approves the first picture (opening it full screen); another asks for changes on the second.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitSite(visitorPage, site.url);
  const first = await openPicture(visitorPage, 'photo-1.jpg');
  const feedback = first.getByRole('group', { name: 'Feedback on photo-1.jpg' });
  await feedback.getByRole('button', { name: 'Favourite' }).click();
  // The first favourite asks the visitor's name once; the favourite then lands by itself.
  await giveName(visitorPage, 'Lena Park', 'lena@client.example');
  await expect(feedback.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'true');
  await feedback.getByRole('button', { name: 'Approve' }).click();
  await expect(feedback.getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-pressed', 'true');
  await feedback.getByRole('button', { name: /^Comments/ }).click();
  await feedback.getByRole('textbox').fill('The light is lovely.');
  await feedback.getByRole('button', { name: 'Post' }).click();
  await expect(feedback.locator('.engagement-comment__text')).toHaveText(['The light is lovely.']);
  await visitor.close();

  const second = await browser.newContext();
  const secondPage = await second.newPage();
  await visitSite(secondPage, site.url);
  const other = await openPicture(secondPage, 'photo-2.jpg');
  const otherFeedback = other.getByRole('group', { name: 'Feedback on photo-2.jpg' });
  await otherFeedback.getByRole('button', { name: 'Request changes' }).click();
  await giveName(secondPage, 'Omar Haddad');
  await expect(otherFeedback.getByRole('button', { name: 'Request changes' })).toHaveAttribute('aria-pressed', 'true');
  await second.close();

  // Every interaction reaches the account's confirmed address ('2 new interactions on …', one message per batch window).
  await expect.poll(() => interactionsMailedTo(email, TITLE), { timeout: 30_000 }).toBe(4);

  // The dashboard: approvals and change requests apart, the pending files, the views.
  const page = await creator.newPage();
  await page.goto('/dashboard');
  const card = page.locator('.dash-card').filter({ hasText: TITLE });
  // The first dashboard load builds its bundle caches on a busy machine: give it time once.
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expectCardCounts(card, { Approved: '1', 'Changes Requested': '1', Pending: '1', Favourites: '1', Comments: '1' });

  // The locked site's card shows its cover (through the owner's own route) with its badges.
  const locked = page.locator('.dash-card').filter({ hasText: 'Private Proofs' });
  await expect(locked.getByTestId('card-badge-password')).toHaveText('Password');
  await expect(locked.getByTestId('card-badge-expiry')).toHaveText('Expires in 3 days');
  const cover = locked.locator('.dash-card__media img');
  await expect(cover).toHaveAttribute('src', /^\/api\/projects\/[^/]+\/files\/[^/]+\/thumbnail/);
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // The same picture stays closed to anyone else.
  const stranger = await browser.newContext();
  expect((await stranger.request.get((await cover.getAttribute('src'))!)).status()).toBe(401);
  await stranger.close();
  await shootPage(page, 'dashboard-cards');

  // The Files tab: each file's approval state, and the picture's view from the lightbox.
  await card.getByRole('link', { name: 'View Details' }).click();
  await page.waitForURL(/\/dashboard\/projects\/[A-Za-z0-9_-]+$/);
  // The detail view's code loads on first use: give it time once on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/^Pending counts the files no one has approved or asked changes of yet: 1 of 3 files\.$/)).toBeVisible();
  await page.getByRole('tab', { name: 'Files' }).click();
  const stateOf = (name: string) => page.locator('.dash-file').filter({ hasText: name }).getByTestId('file-approval-state');
  await expect(stateOf('photo-1.jpg')).toHaveText('Approved');
  await expect(stateOf('photo-2.jpg')).toHaveText('Changes requested');
  await expect(stateOf('photo-3.jpg')).toHaveText('Not reviewed');
  const views = page.locator('.dash-file').filter({ hasText: 'photo-1.jpg' }).locator('.dash-counts__item').filter({ hasText: 'Views' }).locator('.dash-counts__value');
  expect(Number(await views.textContent())).toBeGreaterThanOrEqual(1);
  const firstRow = page.locator('.dash-file').filter({ hasText: 'photo-1.jpg' });
  await firstRow.getByRole('button', { name: /photo-1\.jpg/ }).click();
  await expect(firstRow.getByRole('region', { name: 'Approvals of photo-1.jpg' }).getByText(/^Lena Park\s*lena@client\.example: Approved$/)).toBeVisible();
  await shootPage(page, 'files-tab');

  // Settings: who receives the notifications; another address is an option.
  await page.getByRole('tab', { name: 'Settings' }).click();
  const recipient = page.getByTestId('notification-recipient');
  await expect(recipient).toContainText(`Notifications go to ${email}`);
  await expect(page.getByRole('switch', { name: 'Send me notifications' })).toBeChecked();
  await shootPage(page, 'settings-notifications');
  await recipient.getByRole('button', { name: 'Use a different address' }).click();
  await expect(page.getByRole('textbox', { name: 'Notification email' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Use ${email} instead` })).toBeVisible();

  await creator.close();
});

test("the wizard's notification switch: the account's address by default, an address first when signed out", async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  const email = `ben-${Date.now()}@studio.example`;
  const creator = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await quietAnonymousLoop(creator);
  await signUpThroughLink(creator.request, baseURL!, { email, password: 'correct horse battery', name: 'Ben Ode' });
  const page = await creator.newPage();
  // Signed in with a confirmed email: that address by default, the switch free to turn on.
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles(await threeImages(33));
  await walkToFeatures(page, 'Drafts for the next round.');
  const wizardRecipient = page.getByTestId('notification-recipient');
  await expect(wizardRecipient).toContainText(`Notifications go to ${email}`);
  const notificationsSwitch = page.getByRole('switch', { name: /^Notifications/ });
  await expect(notificationsSwitch).toBeEnabled();
  await notificationsSwitch.click();
  await expect(notificationsSwitch).toHaveAttribute('aria-checked', 'true');
  await shootWizard(page, 'wizard-settings-signed-in');
  await creator.close();

  // Signed out, the switch waits for an address, saying so.
  const anonymous = await browser.newContext();
  await quietAnonymousLoop(anonymous);
  const anonymousPage = await anonymous.newPage();
  await anonymousPage.goto('/');
  await anonymousPage.getByTestId('file-input').setInputFiles(await threeImages(34));
  await walkToFeatures(anonymousPage, 'Drafts for the next round.');
  const blockedSwitch = anonymousPage.getByRole('switch', { name: /^Notifications/ });
  await expect(blockedSwitch).toBeDisabled();
  await shootWizard(anonymousPage, 'wizard-settings-anonymous-blocked');
  await expect(blockedSwitch).toHaveAccessibleDescription(/Enter the address notifications should go to, to turn them on\.$/);
  await anonymousPage.getByRole('textbox', { name: 'Notification email' }).fill('me@studio.example');
  await expect(blockedSwitch).toBeEnabled();
  await blockedSwitch.click();
  await expect(blockedSwitch).toHaveAttribute('aria-checked', 'true');
  await shootWizard(anonymousPage, 'wizard-settings-anonymous');
  await anonymous.close();
});
