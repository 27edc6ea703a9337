/**
 * Billing in a real Chromium against the local Stripe stand-in (testkit/src/control-api/
 * stripe-standin.ts, started beside the API by playwright.config.ts): a creator on Free meets the
 * active-sites limit in the wizard, upgrades from /billing through Checkout and the signed webhooks
 * to Pro (badge, usage bars and the enforced limit change), then cancels in the portal; the
 * 14-day trial from the dashboard with its 'Free Trial Started' dialog; the return from Checkout
 * that waits for the webhook and says so when it does not come. Screenshots (1280 and 375 px,
 * light and dark) go to /tmp/shots-billing/.
 */
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { STANDIN_SECRET_KEY } from '@dropsite/testkit/control-api/stripe-standin';
import { ALL_ENGAGEMENT, makeJpeg, publishSite, quietAnonymousLoop, shootAllWays } from './engagement-helpers.ts';
import { signUpThroughLink } from './account-support.ts';
import { closeEmailPromptWhenShown, threeImages, walkToPreview } from './wizard-support.ts';

const SHOTS_DIR = '/tmp/shots-billing';
/** What a Free account may switch on: no comments, approvals or notifications. */
const FREE_FEATURES = { enableFavorites: true, enableComments: false, enableApprovals: false, enableAnalytics: true };
const PAYMENT_SUCCEEDED = 'Payment successful! Your subscription has been activated.';

/** Signs up in the context through the mailed link, which makes the account with its address confirmed (a trial needs it). */
async function signUp(context: BrowserContext, baseURL: string, name: string): Promise<string> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@studio.example`;
  await signUpThroughLink(context.request, baseURL, { email, password: 'correct horse battery', name });
  return email;
}

/** POST /api/upload as the wizard's regular path does; answers the refusal or the new site. */
async function tryPublish(request: APIRequestContext, baseURL: string, title: string, settings: Record<string, boolean>) {
  const form = new FormData();
  for (const [key, value] of Object.entries({ title, description: 'Selects for review', template: 'universal', settings: JSON.stringify(settings) })) form.append(key, value);
  form.append('files', new Blob([new Uint8Array(await makeJpeg(600, 400, [90, 120, 60]))], { type: 'image/jpeg' }), 'select.jpg');
  const res = await request.post('/api/upload', { multipart: form, headers: { Origin: baseURL } });
  return { status: res.status(), body: (await res.json()) as { code?: string; error?: string } };
}

const meter = (page: Page, label: string) => page.locator('.billing-meter').filter({ has: page.getByRole('heading', { name: label, exact: true }) });
const currentPlan = (page: Page) => page.getByRole('region', { name: 'Current plan' });

/** Nothing on the page is wider than a 375 px screen. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a creator on Free upgrades to Pro through Checkout and the signed webhook; the badge, the bars and the limits change', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await quietAnonymousLoop(context);
  await signUp(context, baseURL!, 'Noor Haddad');

  // Free: three active sites, and comments are a Pro feature.
  for (const title of ['Spring Lookbook', 'Studio Portraits', 'Brand Refresh'])
    await publishSite(context.request, baseURL!, { title, images: [{ name: 'cover.jpg', rgb: [200, 120, 80] }], settings: FREE_FEATURES });
  const refused = await tryPublish(context.request, baseURL!, 'One Too Many', FREE_FEATURES);
  expect(refused).toMatchObject({ status: 403, body: { code: 'site_limit_reached' } });
  expect((await tryPublish(context.request, baseURL!, 'With Comments', ALL_ENGAGEMENT)).body.code).toMatch(/^(site_limit_reached|pro_feature)$/);

  // The wizard shows the refusal with a way to the plans.
  const page = await context.newPage();
  await closeEmailPromptWhenShown(page);
  await page.goto('/');
  // The header names the creator once the page has hydrated and read the session: the wizard listens from then on.
  const accountMenu = page.getByRole('button', { name: 'Account menu for Noor Haddad' });
  await expect(accountMenu).toBeVisible();
  await page.getByTestId('file-input').setInputFiles(await threeImages(41));
  await walkToPreview(page);
  await page.getByRole('button', { name: 'Publish Site' }).click();
  const failure = page.getByRole('alertdialog', { name: 'Upload failed. Please try again.' });
  await expect(failure.getByText(refused.body.error!)).toBeVisible({ timeout: 30_000 });
  await expect(failure.getByRole('link', { name: /See plans and upgrade/ })).toHaveAttribute('href', '/billing');
  await failure.getByRole('button', { name: 'OK' }).click();

  // Turning comments on in a site's settings: the refusal, and the way to the plans.
  const sites = (await (await context.request.get('/api/creators/me/projects')).json()) as { projects: Array<{ id: string; title: string }> };
  await page.goto(`/dashboard/projects/${sites.projects.find((p) => p.title === 'Spring Lookbook')!.id}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  const settings = page.getByRole('form', { name: 'Site settings' });
  const engagement = page.locator('.manage-card').filter({ has: page.getByRole('heading', { level: 2, name: 'Engagement', exact: true }) });
  await engagement.getByRole('switch', { name: 'Comments' }).click();
  await expect(engagement.getByRole('switch', { name: 'Comments' })).toHaveAttribute('aria-checked', 'true');
  await settings.getByRole('button', { name: 'Save changes' }).click();
  const proRefusal = settings.getByRole('alert');
  await expect(proRefusal).toContainText('Comments, approvals and notifications are Pro features. Upgrade to Pro to turn them on.');
  await expect(proRefusal.getByRole('link', { name: 'See plans and upgrade' })).toHaveAttribute('href', '/billing');

  // The account menu leads to the billing page.
  await accountMenu.click();
  await page.getByRole('menuitem', { name: 'Billing' }).click();
  await page.waitForURL(/\/billing$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Plan and billing' })).toBeVisible();
  const plan = currentPlan(page);
  await expect(plan.locator('.billing-current__name')).toHaveText('Free');
  await expect(plan.locator('.billing-badge')).toHaveText('Active');
  await expect(plan.locator('.billing-badge')).toHaveAttribute('data-tone', 'default');
  await expect(meter(page, 'Active sites').locator('.billing-meter__value')).toHaveText('3 of 3');
  await expect(meter(page, 'Active sites').getByRole('meter')).toHaveAttribute('aria-valuenow', '100');
  await expect(meter(page, 'Active sites')).toHaveAttribute('data-level', 'full');
  await expect(meter(page, 'Storage').locator('.billing-meter__value')).toContainText('of 5 GB');
  await expect(meter(page, 'API requests this month').getByRole('meter')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Manage billing' })).toHaveCount(0);
  await expect(
    page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Free', exact: true }) })
      .getByText('Current plan'),
  ).toBeVisible();
  await shootAllWays(page, SHOTS_DIR, 'billing-free');
  await expectNoSidewaysScroll(page);

  // Yearly by keyboard changes the prices; monthly again for the purchase.
  const yearly = page.getByRole('radio', { name: /Yearly/ });
  await page.getByRole('radio', { name: 'Monthly' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(yearly).toBeChecked();
  await expect(page.locator('.billing-plan__price').filter({ hasText: '/ year' })).toHaveCount(2);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: 'Monthly' })).toBeChecked();

  // Upgrade to Pro, by keyboard, through the stand-in's Checkout page.
  await plan.getByRole('button', { name: 'Upgrade to Pro', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/checkout\/cs_test_\w+$/);
  await expect(page.getByText('price_standin_pro_monthly')).toBeVisible();
  // Back from Checkout without paying: the button is usable again, and nothing changed.
  await page.goBack();
  await expect(plan.getByRole('button', { name: 'Upgrade to Pro', exact: true })).toBeEnabled();
  await expect(plan.locator('.billing-current__name')).toHaveText('Free');
  await plan.getByRole('button', { name: 'Upgrade to Pro', exact: true }).click();
  await page.waitForURL(/\/checkout\/cs_test_\w+$/);
  await page.getByRole('button', { name: 'Pay' }).click();

  // Back on /billing only once the webhook has landed: the success notice, and Pro.
  await expect(page.getByRole('status').filter({ hasText: PAYMENT_SUCCEEDED })).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/billing$/);
  await expect(plan.locator('.billing-current__name')).toHaveText('Pro');
  await expect(plan.locator('.billing-badge')).toHaveText('Active');
  await expect(plan.locator('.billing-current__date')).toHaveText(/^Renews on [A-Z][a-z]+ \d{1,2}, \d{4}\.$/);
  await expect(plan.getByRole('button', { name: 'Upgrade to Pro', exact: true })).toHaveCount(0);
  await expect(plan.getByRole('button', { name: 'Manage billing' })).toBeVisible();
  await expect(meter(page, 'Active sites').locator('.billing-meter__value')).toHaveText('3 · Unlimited');
  await expect(meter(page, 'Active sites').getByRole('meter')).toHaveCount(0);
  await expect(meter(page, 'Storage').locator('.billing-meter__value')).toContainText('of 100 GB');
  await expect(meter(page, 'API requests this month').locator('.billing-meter__value')).toContainText('of 1,000');
  await shootAllWays(page, SHOTS_DIR, 'billing-pro');
  await expectNoSidewaysScroll(page);

  // Pro's limits apply on the server: a fourth site, with comments and approvals on.
  await publishSite(context.request, baseURL!, { title: 'Fourth Delivery', images: [{ name: 'cover.jpg', rgb: [60, 90, 200] }], settings: ALL_ENGAGEMENT });
  await page.reload();
  await expect(meter(page, 'Active sites').locator('.billing-meter__value')).toHaveText('4 · Unlimited');

  // Cancelling in the portal keeps Pro to the end of the period, then Free; nothing is deleted.
  await currentPlan(page).getByRole('button', { name: 'Manage billing' }).click();
  await page.waitForURL(/\/portal\/bps_\w+$/);
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  await page.waitForURL(/\/billing$/);
  await expect(currentPlan(page).locator('.billing-current__date')).toHaveText(/^Cancelled: ends on [A-Z][a-z]+ \d{1,2}, \d{4}, then Free\.$/);
  await context.close();
});

test('the 14-day Pro trial starts once from the dashboard and opens Free Trial Started', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await quietAnonymousLoop(context);
  await signUp(context, baseURL!, 'Ines Duarte');
  const page = await context.newPage();
  await page.goto('/dashboard');

  const offer = page.getByRole('region', { name: 'Try Pro free for 14 days' });
  await expect(offer).toBeVisible();
  await shootAllWays(page, SHOTS_DIR, 'dashboard-trial-offer');
  await offer.getByRole('button', { name: 'Start Free Trial' }).click();
  const dialog = page.getByRole('dialog', { name: 'Free Trial Started' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Your 14-day Pro trial has started');
  const expires = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' }).format(Date.now() + 14 * 86_400_000);
  await expect(dialog.locator('.trial-dialog__expiry')).toHaveText(`Your trial expires on ${expires}.`);
  await expect(dialog.getByRole('button', { name: 'Get Started' })).toBeFocused();
  await shootAllWays(page, SHOTS_DIR, 'trial-dialog');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: 'Plan and billing' })).toBeFocused();

  // Once only: the offer is gone, the plan shows the trial.
  const strip = page.getByRole('region', { name: 'Your plan' });
  await expect(strip).toContainText('Pro plan');
  await expect(strip.locator('.billing-badge')).toHaveText('Trial');
  await expect(offer).toHaveCount(0);
  const again = await context.request.post('/api/billing/trial', { data: {}, headers: { Origin: baseURL! } });
  expect(again.status()).toBe(409);

  await strip.getByRole('link', { name: 'Plan and billing' }).click();
  await page.waitForURL(/\/billing$/);
  const plan = currentPlan(page);
  await expect(plan.locator('.billing-current__name')).toHaveText('Pro');
  await expect(plan.locator('.billing-badge')).toHaveText('Trial');
  await expect(plan.locator('.billing-badge')).toHaveAttribute('data-tone', 'secondary');
  await expect(plan.locator('.billing-current__date')).toHaveText(`Trial ends on ${expires}; then Free unless you choose a plan.`);
  await expect(page.getByRole('button', { name: /Start 14-day Pro trial/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Keep Pro after the trial (billed monthly)' })).toBeEnabled();
  await shootAllWays(page, SHOTS_DIR, 'billing-trial');
  await context.close();
});

test('back from Checkout the page waits for the webhook, and says so plainly when it does not come', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await quietAnonymousLoop(context);
  await signUp(context, baseURL!, 'Sami Okafor');
  const page = await context.newPage();
  await page.clock.install();
  await page.goto('/billing?checkout=success&session_id=cs_test_never_paid');

  await expect(page.getByRole('status').filter({ hasText: 'Confirming your payment…' })).toBeVisible();
  await expect(currentPlan(page).locator('.billing-current__name')).toHaveText('Free');
  await expect(currentPlan(page).getByRole('button', { name: 'Upgrade to Pro', exact: true })).toBeDisabled();
  await shootAllWays(page, SHOTS_DIR, 'billing-waiting');

  await page.clock.fastForward(61_000);
  await expect(page.getByRole('alert').filter({ hasText: 'Your payment has not been confirmed yet' })).toBeVisible();
  await expect(page.getByText(PAYMENT_SUCCEEDED)).toHaveCount(0);
  await expect(currentPlan(page).locator('.billing-current__name')).toHaveText('Free');
  await expect(page.getByRole('button', { name: 'Check again' })).toBeVisible();

  await page.goto('/billing?checkout=cancelled');
  await expect(page.getByRole('status').filter({ hasText: 'Checkout cancelled. You have not been charged and your plan has not changed.' })).toBeVisible();

  // The trial starts from /billing too, once.
  await currentPlan(page).getByRole('button', { name: 'Start 14-day Pro trial' }).click();
  const dialog = page.getByRole('dialog', { name: 'Free Trial Started' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Get Started' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Current plan' })).toBeFocused();
  await expect(currentPlan(page).locator('.billing-badge')).toHaveText('Trial');
  await expect(currentPlan(page).getByRole('button', { name: 'Start 14-day Pro trial' })).toHaveCount(0);
  await context.close();
});

test("the landing page's Start Free Trial leads to /billing, which signed out says so and leaves for the sign-in page, remembering where it was", async ({ page }) => {
  await page.goto('/#pricing');
  const trial = page.locator('#pricing').getByRole('link', { name: 'Start Free Trial' });
  await expect(trial).toHaveAttribute('href', '/billing');
  await trial.click();
  await page.waitForURL(/\/billing$/);
  await expect(page.getByRole('heading', { name: 'Please sign in to access your dashboard' })).toBeVisible();
  await page.waitForURL(/\/sign-in\?returnTo=%2Fbilling$/);
});

test('deleting an account on Pro says the plan is cancelled, and Stripe no longer bills it', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await quietAnonymousLoop(context);
  const email = await signUp(context, baseURL!, 'Omar Said');
  const checkout = await context.request.post('/api/billing/checkout', { data: { planId: 'pro_monthly', interval: 'monthly' }, headers: { Origin: baseURL! } });
  expect(checkout.status()).toBe(200);
  const checkoutUrl = new URL(((await checkout.json()) as { url: string }).url);
  const page = await context.newPage();
  await page.goto(checkoutUrl.href);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('status').filter({ hasText: PAYMENT_SUCCEEDED })).toBeVisible({ timeout: 20_000 });

  await page.goto('/account');
  await expect(page.getByText('A paid plan is cancelled at once: nothing more is charged, and the rest of its period is not refunded.')).toBeVisible();
  await page.getByRole('button', { name: 'Delete account…' }).click();
  await page.getByLabel(`Type ${email} to confirm`).fill(email);
  await page.getByLabel('Your password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Delete my account and sites' }).click();
  await expect(page).toHaveURL(/\/$/);

  // Stripe (the stand-in, asked as the API asks it) has the subscription cancelled.
  const stripe = (path: string) => fetch(`${checkoutUrl.origin}${path}`, { headers: { Authorization: `Bearer ${STANDIN_SECRET_KEY}` } }).then((r) => r.json());
  const session = (await stripe(`/v1/checkout/sessions/${checkoutUrl.pathname.split('/').pop()}`)) as { subscription: string };
  expect(await stripe(`/v1/subscriptions/${session.subscription}`)).toMatchObject({ status: 'canceled' });
  await context.close();
});
