/**
 * The creator's dashboard in a real Chromium: a site published anonymously, a visitor who
 * favourites and comments in their own browser, then the creator signs up on another device, signs
 * in with the password in the browser that published, claims the site from the banner, reads its analytics and chart, and replies to the comment, which the visitor
 * then sees on the site. Screenshots (1280 and 375 px, light and dark) go to /tmp/shots-dash/.
 */
import { expect, test } from '@playwright/test';
import { VISITOR_NAME, engageAsVisitor, giveName, publishSite, quietAnonymousLoop, shootAllWays, visitSite } from './engagement-helpers.ts';
import { signUpThroughLink } from './account-support.ts';

const SHOTS_DIR = '/tmp/shots-dash';
const COMMENT = 'Could the logo sit a little higher?';
const REPLY = 'Yes, moved up 12 px in the next round.';

test('a creator signs up, claims the site from the banner, reads its analytics and replies to a visitor', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const creator = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await quietAnonymousLoop(creator);
  const site = await publishSite(creator.request, baseURL!, { title: 'Brand Refresh', images: [{ name: 'logo-v2.jpg', rgb: [40, 90, 160] }] });
  await engageAsVisitor(browser, site, COMMENT);

  const page = await creator.newPage();
  // Signed out, the dashboard says so and leaves for the sign-in page, remembering where it was.
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Please sign in to access your dashboard' })).toBeVisible();
  await expect(page.getByText('Redirecting...')).toBeVisible();
  await page.waitForURL(/\/sign-in\?returnTo=%2Fdashboard$/);

  // Signed up on another device (its mailed link opened there), then signed in here with the password: this
  // browser's anonymous session is still there to claim. A session a mailed link opened offers no claim
  // (sign-in-link.security.e2e.ts), so the password it is.
  const account = { email: `mara-${Date.now()}@studio.example`, password: 'correct horse battery', name: 'Mara Lind' };
  const elsewhere = await browser.newContext();
  await signUpThroughLink(elsewhere.request, baseURL!, account);
  await elsewhere.close();
  const signedIn = await creator.request.post('/api/auth/sign-in', { data: { email: account.email, password: account.password }, headers: { Origin: baseURL! } });
  expect(signedIn.status(), await signedIn.text()).toBe(200);

  await page.goto('/dashboard');
  // An account made moments ago is not welcomed back.
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Mara Lind' })).toBeVisible();
  const banner = page.locator('.dash-claim');
  await expect(banner.getByRole('heading', { name: 'You have 1 site to claim' })).toBeVisible();
  await expect(page.locator('.dash__count')).toHaveText('0 sites');
  // The banner is what to do next: no 'No sites yet' under it.
  await expect(page.getByRole('heading', { name: 'No sites yet' })).toHaveCount(0);
  const details = banner.getByRole('button', { name: 'Show Details' });
  await details.click();
  await expect(banner.getByRole('button', { name: 'Hide Details' })).toHaveAttribute('aria-expanded', 'true');
  await expect(banner.getByRole('heading', { name: 'Brand Refresh' })).toBeVisible();
  await expect(banner.getByRole('list', { name: 'Enabled features' }).getByRole('listitem')).toHaveText(['Favourites', 'Comments', 'Approvals']);
  await shootAllWays(page, SHOTS_DIR, 'dashboard-banner');

  await banner.getByRole('button', { name: 'Claim Site' }).click();
  await expect(banner).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: '1 site moved to your dashboard.' })).toBeVisible();
  const card = page.locator('.dash-card').filter({ hasText: 'Brand Refresh' });
  await expect(card).toBeVisible();
  await expect(page.locator('.dash__count')).toHaveText('1 site');
  await expect(card.locator('.dash-counts__item').filter({ hasText: 'Favourites' }).locator('.dash-counts__value')).toHaveText('1');
  await expect(card.locator('.dash-counts__item').filter({ hasText: 'Comments' }).locator('.dash-counts__value')).toHaveText('1');
  await expect(card.getByRole('link', { name: /View Site/ })).toHaveAttribute('href', site.url);

  // The card's analytics open in place, with the chart drawn by uPlot.
  await card.getByRole('button', { name: 'Show Analytics' }).click();
  const cardPanel = card.getByRole('region', { name: 'Analytics of Brand Refresh' });
  await expect(cardPanel.locator('.dash-stats__item').filter({ hasText: 'Favourites' }).locator('dd')).toHaveText('1');
  await expect(cardPanel.locator('.dash-chart__plot canvas')).toBeVisible();
  await shootAllWays(page, SHOTS_DIR, 'dashboard-list');
  await card.getByRole('button', { name: 'Hide Analytics' }).click();

  // The site's detail view.
  // The detail page's timers run on a clock the test can move, so the 15 s poll needs no waiting.
  await page.clock.install();
  await card.getByRole('link', { name: 'View Details' }).click();
  await page.waitForURL(/\/dashboard\/projects\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Brand Refresh' })).toBeVisible();
  const tile = (label: string) =>
    page
      .locator('.dash-tiles .dash-tile')
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator('dd');
  await expect(tile('Favourites')).toHaveText('1');
  await expect(tile('Comments')).toHaveText('1');
  expect(Number(await tile('Views').textContent())).toBeGreaterThanOrEqual(1);

  // Tabs follow the ARIA pattern: one tab stop, the arrows move and select.
  const overview = page.getByRole('tab', { name: 'Overview' });
  await expect(overview).toHaveAttribute('aria-selected', 'true');
  const sitePanel = page.getByRole('region', { name: 'Site analytics' });
  await expect(sitePanel.locator('.dash-chart__plot canvas')).toBeVisible();
  await expect(sitePanel.locator('.dash-activity__item').filter({ hasText: COMMENT })).toHaveCount(1);
  const csvLink = page.getByRole('link', { name: 'Download CSV' });
  await expect(csvLink).toHaveAttribute('href', /\/engagement\.csv$/);
  const csv = await creator.request.get((await csvLink.getAttribute('href'))!);
  expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
  expect(await csv.text()).toContain(COMMENT);
  // The chart: a range of 7 days, and the keyboard walks the days.
  await sitePanel.getByRole('button', { name: '7 days' }).click();
  await expect(sitePanel.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
  await sitePanel.locator('.dash-chart__plot').focus();
  await page.keyboard.press('End');
  await expect(sitePanel.locator('.dash-chart__reading')).toContainText(/\d+ views?, \d+ unique visitors?, \d+ downloads?/);
  await shootAllWays(page, SHOTS_DIR, 'project-overview');

  // New engagement shows without a reload: another visitor comments, the next poll brings it.
  const second = await browser.newContext();
  const secondPage = await second.newPage();
  await visitSite(secondPage, site.url);
  const secondControls = secondPage.locator('[data-engagement]').first();
  await secondControls.getByRole('button', { name: /^Comments/ }).click();
  await secondControls.getByRole('textbox').fill('Love the new colour.');
  await secondControls.getByRole('button', { name: 'Post' }).click();
  // A new visitor: asked their name, then the comment goes out as typed.
  await giveName(secondPage, 'Olu Bakare', 'olu@example.com');
  await expect(secondControls.locator('.engagement-comment__text')).toHaveText([COMMENT, 'Love the new colour.']);
  await second.close();
  // The activity call answers events once they are 2 s old (so a late commit is never missed): the
  // next polls bring the comment once that much real time has passed.
  await expect(async () => {
    await page.clock.fastForward(16_000);
    await expect(tile('Comments')).toHaveText('2', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  // The live region announces the newest of what arrived (the second visitor's view may be newer than the comment).
  await expect(page.locator('.dash-live')).toContainText('New: ');
  await expect(sitePanel.locator('.dash-activity__item').filter({ hasText: 'Love the new colour.' })).toHaveCount(1);

  await overview.focus();
  await page.keyboard.press('ArrowRight');
  const filesTab = page.getByRole('tab', { name: 'Files' });
  await expect(filesTab).toBeFocused();
  await expect(filesTab).toHaveAttribute('aria-selected', 'true');

  const fileRow = page.locator('.dash-file').filter({ hasText: 'logo-v2.jpg' });
  await fileRow.getByRole('button', { name: /logo-v2\.jpg/ }).click();
  const thread = fileRow.locator('.dash-thread').filter({ hasText: COMMENT });
  // The creator sees the name the visitor gave.
  await expect(thread.locator('.dash-comment__author').first()).toHaveText(VISITOR_NAME);
  await thread.getByRole('button', { name: 'Reply' }).click();
  await thread.getByRole('textbox', { name: /^Reply to / }).fill(REPLY);
  await thread.getByRole('button', { name: 'Post reply' }).click();
  await expect(thread.locator('.dash-comment[data-creator] .dash-comment__text')).toHaveText(REPLY);
  // The file's own analytics, chart included.
  await fileRow.getByRole('button', { name: 'Show file analytics' }).click();
  const filePanel = fileRow.getByRole('region', { name: 'Analytics of logo-v2.jpg' });
  await expect(filePanel.locator('.dash-stats__item').filter({ hasText: 'Favourites' }).locator('dd')).toHaveText('1');
  await expect(filePanel.locator('.dash-chart__plot canvas')).toBeVisible();
  await shootAllWays(page, SHOTS_DIR, 'project-files');

  await page.keyboard.press('End');
  await page.getByRole('tab', { name: 'Engagement' }).click();
  await expect(page.locator('.dash-top__item').filter({ hasText: 'logo-v2.jpg' })).toBeVisible();

  // The reply is on the site, as the creator's.
  const visitor = await browser.newContext();
  const sitePage = await visitor.newPage();
  await visitSite(sitePage, site.url);
  const controls = sitePage.locator('[data-engagement]').first();
  await controls.getByRole('button', { name: /^Comments/ }).click();
  await expect(controls.getByText(REPLY)).toBeVisible();
  await visitor.close();
  await creator.close();
});

test('a site the creator does not own, or that does not exist, fails to load with Go Back', async ({ browser, baseURL }) => {
  const context = await browser.newContext();
  await signUpThroughLink(context.request, baseURL!, { email: `nobody-${Date.now()}@studio.example`, password: 'correct horse battery', name: 'Nobody' });
  const page = await context.newPage();
  // The chart library is the dashboard's alone: the landing page never fetches it.
  const scripts: string[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && scripts.push(request.url()));
  await page.goto('/');
  await expect(page.locator('#upload')).toBeVisible({ timeout: 15_000 });
  expect(scripts.filter((url) => /uPlot|daily-chart|dashboard-page/.test(url))).toEqual([]);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'No sites yet' })).toBeVisible();
  await page.goto('/dashboard/projects/AAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByRole('heading', { name: 'Failed to load site details' })).toBeVisible();
  await page.getByRole('button', { name: 'Go Back' }).click();
  await page.waitForURL(/\/dashboard$/);
  await context.close();
});
