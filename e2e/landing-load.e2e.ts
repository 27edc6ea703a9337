/**
 * What the landing page loads before anyone touches it, and that what it leaves for later still
 * arrives when needed: a first visit fetches no schema code (zod and the replies' schemas load only
 * when there is something to check); a browser that keeps the bell's alerts reads them on load; the
 * wizard's later steps and upload machinery arrive once files are chosen. All under the app's CSP.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { threeImages } from './wizard-support.ts';

/** The code the page fetched: every script's path. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

/** CSP violations of the context, from the event and from Chromium's console report. */
async function recordViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.effectiveDirective} ${e.blockedURI || 'inline'}`));
  });
  context.on('console', (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

const SCHEMA_CODE = /\/assets\/(zod|schemas)-[\w-]+\.js$/;

test('a first visit to the landing page fetches no schema code, and the wizard still walks on to its details step', async ({ page, context }) => {
  const violations = await recordViolations(context);
  const scripts = recordScripts(page);
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('button', { name: 'Engagement alerts' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((path) => SCHEMA_CODE.test(path))).toEqual([]);

  // Choosing files brings the next steps; Continue walks through them.
  await page
    .locator('input[type="file"]')
    .first()
    .setInputFiles(await threeImages(41));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: /Choose a template/ })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: /Site details/ })).toBeVisible();
  expect(violations).toEqual([]);
});

test('alerts kept by this browser show on load: the schemas arrive before the first render, under the CSP', async ({ page, context }) => {
  const violations = await recordViolations(context);
  const scripts = recordScripts(page);
  const now = Date.now();
  await context.addInitScript((timestamp) => {
    const alert = (id: string, message: string) => ({ id, type: 'comment', message, ctaText: 'View', timestamp, isRead: false, urgencyLevel: 'medium', expiresAt: null });
    localStorage.setItem(
      'dropsite.notifications',
      JSON.stringify({ items: [alert('a1', 'A visitor commented on “Harbour shoot”'), alert('a2', 'A visitor approved ceremony.jpg')], since: null, raisedWarnings: [] }),
    );
  }, now - 60_000);
  await page.goto('/');
  const bell = page.getByRole('button', { name: 'Engagement alerts, 2 unread' });
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(page.getByText('A visitor commented on “Harbour shoot”')).toBeVisible();
  expect(scripts.some((path) => SCHEMA_CODE.test(path))).toBe(true);
  expect(violations).toEqual([]);
});

test('files chosen before the page’s script runs are taken in once it does, not lost', async ({ page }) => {
  // The app's script is held back until the files are chosen, as on a slow connection.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/app-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  // The page's HTML is in, its (deferred) script not yet: the box is there to use.
  await page.goto('/', { waitUntil: 'commit' });
  await expect(page.getByTestId('file-input')).toBeAttached();
  await page.getByTestId('file-input').setInputFiles(await threeImages(7));
  release();
  await expect(page.getByText('3 files added')).toBeAttached();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
});
