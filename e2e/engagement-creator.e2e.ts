import { expect, test, type BrowserContext, type Page, type Request } from '@playwright/test';
import { engageAsVisitor, publishSite } from './engagement-helpers.ts';

/** Records what the page hands to the Notification API (headless Chromium shows nothing itself). */
async function recordBrowserNotifications(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shown: { title: string; body: string; closed: boolean; requireInteraction: boolean }[] = [];
    (window as unknown as { __notifications: typeof shown }).__notifications = shown;
    class RecordingNotification {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      onclick: (() => void) | null = null;
      private entry: (typeof shown)[number];
      constructor(title: string, options: { body?: string; requireInteraction?: boolean } = {}) {
        this.entry = { title, body: options.body ?? '', closed: false, requireInteraction: options.requireInteraction ?? false };
        shown.push(this.entry);
      }
      close() {
        this.entry.closed = true;
      }
    }
    Object.defineProperty(window, 'Notification', { value: RecordingNotification, configurable: true });
  });
}

function jsonBody(request: Request): Record<string, unknown> {
  return JSON.parse(request.postData() ?? '{}') as Record<string, unknown>;
}

test('after a visitor engages, the creator gets the email prompt, bell alerts, browser notifications and the teaser', async ({ browser, baseURL }) => {
  const creator = await browser.newContext();
  await recordBrowserNotifications(creator);
  const site = await publishSite(creator.request, baseURL!, { title: 'Brand Refresh', images: [{ name: 'logo-v2.jpg', rgb: [40, 90, 160] }] });
  await engageAsVisitor(browser, site, 'The new mark reads much better small.');

  const page = await creator.newPage();
  await page.clock.install();
  await page.goto('/');

  // first_engagement: a visitor engaged, no email stored, not shown this session.
  const modal = page.getByRole('dialog', { name: 'Someone just engaged with your site' });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('listitem')).toHaveCount(3);
  const email = modal.getByRole('textbox', { name: 'Email address' });
  await expect(email).toBeFocused();
  const submit = modal.getByRole('button', { name: 'Keep me posted' });
  await expect(submit).toBeDisabled();
  for (const invalid of ['mara', 'mara@studio', 'mara @studio.example', 'mara@studio.']) {
    await email.fill(invalid);
    await expect(submit).toBeDisabled();
    await expect(modal.getByRole('img', { name: 'Valid email address' })).toHaveCount(0);
  }
  await email.fill('mara@studio.example');
  await expect(modal.getByRole('img', { name: 'Valid email address' })).toBeVisible();
  await expect(submit).toBeEnabled();

  const collected = page.waitForRequest((r) => r.url().endsWith('/api/email-collection') && r.method() === 'POST');
  const collectedEvent = page.waitForRequest((r) => r.url().endsWith('/api/analytics/events') && jsonBody(r).event === 'email_collected');
  await submit.click();
  expect(jsonBody(await collected)).toMatchObject({ email: 'mara@studio.example', trigger: 'first_engagement', projectId: expect.any(String) });
  expect(jsonBody(await collectedEvent)).toMatchObject({ event: 'email_collected', trigger: 'first_engagement' });
  const done = page.getByRole('dialog', { name: 'You’re all set' });
  await expect(done).toContainText('mara@studio.example');
  await done.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('dropsite.collectedEmail') ?? 'null'))).toMatchObject({
    email: 'mara@studio.example',
    collected_via: 'first_engagement',
    project_id: expect.any(String),
  });

  // The bell: the visitor's favourite and comment, newest first, as alerts and browser notifications.
  const bell = page.getByRole('button', { name: /^Engagement alerts/ });
  await expect(bell).toHaveAccessibleName('Engagement alerts, 2 unread');
  await bell.click();
  const panel = page.getByRole('region', { name: 'Engagement Alerts' });
  await expect(panel.getByRole('listitem')).toHaveCount(2);
  await expect(panel.getByRole('listitem').first()).toContainText('commented');
  await expect(panel.getByRole('listitem').nth(1)).toContainText('favourited');
  await expect(panel.getByRole('button', { name: 'Clear All' })).toBeVisible();
  // 'Sign Up Free' opens the sign-up form, which comes back to this page when done.
  await expect(panel.getByRole('link', { name: 'Sign Up Free' })).toHaveAttribute('href', '/sign-in?mode=sign-up&returnTo=%2F');
  const notifications = () => page.evaluate(() => (window as unknown as { __notifications: { title: string; closed: boolean }[] }).__notifications);
  await expect.poll(async () => (await notifications()).map((n) => n.title).sort()).toEqual(['New comment', 'New favourite']);
  // Not urgent: they close by themselves after 10 s.
  expect((await notifications()).every((n) => !n.closed)).toBe(true);
  await page.clock.runFor(10_000);
  expect((await notifications()).every((n) => n.closed)).toBe(true);

  // One prompt per page: the email prompt asked, so the teaser waits for the next page.
  await expect(page.getByText('interactions on your sites')).toHaveCount(0);

  // Clicking an alert marks it read and opens the dashboard.
  await panel.getByRole('listitem').first().getByRole('button').click();
  await page.waitForURL('**/dashboard');
  await page.goto('/');
  await expect(page.getByRole('button', { name: /^Engagement alerts/ })).toHaveAccessibleName('Engagement alerts, 1 unread');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The teaser, in the page under the upload: the real interaction count, Maybe Later remembered.
  const teaser = page.getByRole('complementary').filter({ hasText: 'interactions on your sites' });
  await expect(teaser.getByRole('heading')).toHaveText('2 interactions on your sites');
  await expect(teaser.getByText('7 days left')).toBeVisible();
  await expect(teaser.getByRole('link', { name: 'Sign Up Free' })).toHaveAttribute('href', '/sign-in?mode=sign-up&returnTo=%2F');

  await page.getByRole('complementary').filter({ hasText: 'interactions on your sites' }).getByRole('button', { name: 'Maybe Later', exact: true }).click();
  await expect(page.getByText('interactions on your sites')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('button', { name: /^Engagement alerts/ })).toBeVisible();
  await expect(page.getByText('interactions on your sites')).toHaveCount(0);

  await page.getByRole('button', { name: /^Engagement alerts/ }).click();
  await page.getByRole('button', { name: 'Clear All' }).click();
  await expect(page.getByText('No alerts yet')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Engagement alerts/ })).toHaveAccessibleName('Engagement alerts');
  await creator.close();
});

test('after a publish the prompt asks 3 s later; once skipped or closed, no other asks for the session', async ({ browser, baseURL }) => {
  const creator = await browser.newContext();
  await publishSite(creator.request, baseURL!, { title: 'Quiet Site', images: [{ name: 'only.jpg', rgb: [200, 200, 200] }] });
  // The pages' timers run on Playwright's clock (the context's, shared by its pages), paused a second after the page is up.
  await creator.clock.install();
  const page = await creator.newPage();
  await page.goto('/');
  await expect(page.getByRole('button', { name: /^Engagement alerts/ })).toBeVisible();
  await creator.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  // Nothing happened yet (no interactions, few views, first visit): no prompt, no teaser.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('interactions on your sites')).toHaveCount(0);

  const published = () => page.evaluate(() => window.dispatchEvent(new CustomEvent('dropsite:published', { detail: { slug: 'x', url: 'http://x' } })));
  await published();
  const returnVisit = page.getByRole('dialog', { name: 'Keep your sites with you' });
  // Asked 3 s after the publish, not before.
  await creator.clock.runFor(2_999);
  await expect(returnVisit).toHaveCount(0);
  await creator.clock.runFor(1);
  await expect(returnVisit).toBeVisible();

  const skipped = page.waitForRequest((r) => r.url().endsWith('/api/analytics/events') && jsonBody(r).event === 'email_collection_skipped');
  await returnVisit.getByRole('button', { name: 'Continue without' }).click();
  expect(jsonBody(await skipped)).toMatchObject({ event: 'email_collection_skipped', trigger: 'return_visit' });
  await expect(returnVisit).toHaveCount(0);

  // Skipped: no other prompt follows in this browser session, after another publish or on the next page.
  await published();
  await creator.clock.runFor(4000);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('button', { name: /^Engagement alerts/ })).toBeVisible();
  await creator.clock.runFor(1000);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Another tab is another browser session: it may ask once; Escape dismisses it, and that is remembered too.
  const other = await creator.newPage();
  await other.goto('/');
  await expect(other.getByRole('button', { name: /^Engagement alerts/ })).toBeVisible();
  const publishedThere = () => other.evaluate(() => window.dispatchEvent(new CustomEvent('dropsite:published', { detail: { slug: 'x', url: 'http://x' } })));
  await publishedThere();
  const again = other.getByRole('dialog', { name: 'Keep your sites with you' });
  await creator.clock.runFor(3000);
  await expect(again).toBeVisible();
  const dismissed = other.waitForRequest((r) => r.url().endsWith('/api/analytics/events') && jsonBody(r).event === 'email_modal_dismissed');
  await other.keyboard.press('Escape');
  expect(jsonBody(await dismissed)).toMatchObject({ event: 'email_modal_dismissed', trigger: 'return_visit' });
  await expect(again).toHaveCount(0);
  await other.reload();
  await expect(other.getByRole('button', { name: /^Engagement alerts/ })).toBeVisible();
  await publishedThere();
  await creator.clock.runFor(4000);
  await expect(other.getByRole('dialog')).toHaveCount(0);
  await creator.close();
});

test('ten views of the creator’s sites bring the high-views prompt', async ({ browser, baseURL, playwright }) => {
  const creator = await browser.newContext();
  const site = await publishSite(creator.request, baseURL!, {
    title: 'Portfolio',
    images: [{ name: 'cover.jpg', rgb: [90, 60, 30] }],
    settings: { enableAnalytics: true },
  });
  const { sessionId } = (await (await creator.request.get('/api/creators/anonymous/session')).json()) as { sessionId: string };
  const { projects } = (await (await creator.request.get(`/api/projects/anonymous/${sessionId}`)).json()) as { projects: { id: string }[] };
  // Ten different visitors (views count once per visitor), each sending the page's beacon.
  for (let i = 0; i < 10; i++) {
    const visitor = await playwright.request.newContext({ baseURL });
    await visitor.get(site.url);
    const res = await visitor.post('/api/analytics/view', { data: { projectId: projects[0]!.id }, headers: { Origin: baseURL! } });
    expect(res.status()).toBe(200);
    await visitor.dispose();
  }
  const page = await creator.newPage();
  await page.goto('/');
  await expect(page.getByRole('dialog', { name: 'Your site is getting noticed' })).toBeVisible();
  await creator.close();
});

test('under 24 hours before the 7-day window ends, the bell raises a high-urgency warning', async ({ browser, baseURL }) => {
  const creator = await browser.newContext();
  await publishSite(creator.request, baseURL!, { title: 'Almost Gone', images: [{ name: 'a.jpg', rgb: [1, 2, 3] }] });
  const page: Page = await creator.newPage();
  // The browser's clock 6 days and 12 hours ahead: the hourly check sees under 24 h left.
  await page.clock.install({ time: Date.now() + (6 * 24 + 12) * 3_600_000 });
  await page.goto('/');
  const bell = page.getByRole('button', { name: /^Engagement alerts/ });
  await expect(bell).toHaveAccessibleName('Engagement alerts, 1 unread');
  await bell.click();
  const warning = page.getByRole('region', { name: 'Engagement Alerts' }).getByRole('listitem');
  await expect(warning).toHaveCount(1);
  await expect(warning).toContainText(/In 1[12] hours this browser stops showing your sites’ activity/);
  await expect(warning.getByRole('button')).toHaveAttribute('data-urgency', 'high');
  await creator.close();
});
