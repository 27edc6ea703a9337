/**
 * Accessibility of the signed-in app and the wizard in real Chromium: axe-core scans the
 * dashboard, a site's page, the account page (its menu open) and billing, and every step of the
 * wizard, at 1280 and 375 px in light and dark, failing on any serious or critical violation. And
 * what a client sees around a site's life: the line saying when its link expires (in the
 * visitor's time zone), the pages of an expired and a removed site, the sign-in page's heading
 * before any script runs. Screenshots of these screens go to /tmp/shots/start/.
 */
import { mkdirSync } from 'node:fs';
import { expectNoSeriousViolations } from './a11y-support.ts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signUpThroughLink } from './account-support.ts';
import { makeJpeg, publishSite, quietAnonymousLoop } from './engagement-helpers.ts';
import { closeEmailPromptWhenShown, expectPreviewImageDecoded, threeImages } from './wizard-support.ts';

const SHOTS = '/tmp/shots/start';
const VIEWPORTS = [
  { width: 1280, height: 860 },
  { width: 375, height: 760 },
] as const;
const SCHEMES = ['light', 'dark'] as const;
/** What a Free account may switch on. */
const FREE_FEATURES = { enableFavorites: true, enableComments: false, enableApprovals: false, enableAnalytics: true };

/** Scans the page as it is now in both colour schemes (at the current width), with a picture of each. */
async function scanBothSchemes(page: Page, label: string, shot?: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousViolations(page, `${label} (${width} px, ${scheme})`);
    if (shot) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/${shot}-${width}-${scheme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function settle(page: Page, path: string): Promise<void> {
  const response = await page.goto(path, { waitUntil: 'load' });
  expect(response?.status(), `GET ${path}`).toBe(200);
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

async function signUp(request: APIRequestContext, baseURL: string, name: string): Promise<void> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@studio.example`;
  await signUpThroughLink(request, baseURL, { email, password: 'correct horse battery', name });
}

test.describe('axe: the signed-in app', () => {
  for (const viewport of VIEWPORTS) {
    test(`dashboard, a site, account (menu open) and billing at ${viewport.width} px`, async ({ page, context, baseURL }) => {
      test.setTimeout(480_000);
      await quietAnonymousLoop(context);
      await signUp(context.request, baseURL ?? '', 'Mara Lind');
      const site = await publishSite(context.request, baseURL ?? '', { title: 'Autumn selects', images: [{ name: 'pier.jpg', rgb: [90, 120, 160] }], settings: FREE_FEATURES });
      await page.setViewportSize(viewport);

      await settle(page, '/dashboard');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText('Autumn selects').first()).toBeVisible();
      await scanBothSchemes(page, '/dashboard', 'dashboard');

      const mine = (await (await context.request.get('/api/creators/me/projects')).json()) as { projects?: { id: string; slug: string }[] };
      const id = mine.projects?.find((p) => p.slug === site.slug)?.id;
      expect(id, 'the published site is on the dashboard').toMatch(/^[A-Za-z0-9_-]{16,}$/);
      await settle(page, `/dashboard/projects/${id}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await scanBothSchemes(page, `site page of ${site.slug}`);

      await settle(page, '/account');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await scanBothSchemes(page, '/account');
      // The account button (the header's menu on a phone): its name says whose account it is, and its initials add no words to it.
      if (viewport.width > 600) {
        await page.getByRole('button', { name: 'Account menu for Mara Lind' }).click();
        await expect(page.getByRole('menu', { name: 'Account' })).toBeVisible();
      } else {
        await page.getByRole('button', { name: 'Menu' }).click();
      }
      await scanBothSchemes(page, '/account, account menu open', 'account-menu');
      await page.keyboard.press('Escape');

      await settle(page, '/billing');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await scanBothSchemes(page, '/billing');
    });
  }
});

test.describe('axe: every step of the wizard', () => {
  for (const viewport of VIEWPORTS) {
    test(`upload, template, details, features, preview and success at ${viewport.width} px`, async ({ page, context }) => {
      test.setTimeout(600_000);
      await quietAnonymousLoop(context);
      await closeEmailPromptWhenShown(page);
      await page.setViewportSize(viewport);
      await settle(page, '/');
      const upload = page.locator('#upload');
      await upload.scrollIntoViewIfNeeded();
      await scanBothSchemes(page, 'wizard: upload, empty');

      await page.getByTestId('file-input').setInputFiles(await threeImages(viewport.width === 375 ? 31 : 32));
      await expect(page.getByText('ceremony.jpg')).toBeVisible();
      await scanBothSchemes(page, 'wizard: upload, files chosen');

      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('heading', { name: /Choose a template/ })).toBeVisible();
      await scanBothSchemes(page, 'wizard: template');

      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('heading', { name: /Site details/ })).toBeVisible();
      await page.getByLabel(/^Description/).fill('Ceremony, portraits and the first dance.');
      await scanBothSchemes(page, 'wizard: details');

      await page.getByRole('button', { name: 'Configure Features' }).click();
      await expect(page.getByRole('heading', { name: 'Client Engagement Features' })).toBeVisible();
      await scanBothSchemes(page, 'wizard: features');

      await page.getByRole('button', { name: 'Preview Site' }).click();
      await expect(page.getByText('Preview Mode - This is how visitors will see your site')).toBeVisible();
      // The preview as a visitor would see it: its page written into the frame and a picture drawn.
      const frame = page.frameLocator('[data-testid="preview-frame"]');
      await expect(frame.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 15_000 });
      await expectPreviewImageDecoded(frame);
      await scanBothSchemes(page, 'wizard: preview');

      await page.getByRole('button', { name: 'Publish Site' }).click();
      await expect(page.getByRole('heading', { name: 'Your site has been created!' })).toBeVisible({ timeout: 60_000 });
      await scanBothSchemes(page, 'wizard: success');
    });
  }
});

test.describe('what a client sees of expiry and removal', () => {
  test.use({ timezoneId: 'Asia/Tokyo' });

  /** POST /api/upload of one picture with an expiry; waits until the site is live. */
  async function publishExpiring(request: APIRequestContext, baseURL: string, title: string, expiresAt: Date): Promise<string> {
    const form = new FormData();
    for (const [key, value] of Object.entries({ title, description: 'Selects for review', template: 'universal', authorName: 'Mara Lind', expiryDate: expiresAt.toISOString() }))
      form.append(key, value);
    form.append('files', new Blob([new Uint8Array(await makeJpeg(600, 400, [90, 120, 60]))], { type: 'image/jpeg' }), 'select.jpg');
    const res = await request.post('/api/upload', { multipart: form, headers: { Origin: baseURL } });
    expect(res.status(), await res.text()).toBe(201);
    const { slug } = (await res.json()) as { slug: string };
    await expect.poll(async () => ((await (await request.get(`/api/sites/${slug}/status`)).json()) as { status: string }).status, { timeout: 30_000 }).toBe('live');
    return slug;
  }

  test("the site says when its link expires, in the visitor's time zone: the date from afar, a countdown within the week", async ({ page, context, baseURL }) => {
    test.setTimeout(300_000);
    // Half past eleven at night UTC, 20 days ahead: the next day in Tokyo.
    const far = new Date(Date.now() + 20 * 86_400_000);
    far.setUTCHours(23, 30, 0, 0);
    const farSlug = await publishExpiring(context.request, baseURL ?? '', 'Harbour selects', far);
    const tokyoDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Asia/Tokyo' }).format(far);
    const html = await (await context.request.get(`/${farSlug}`)).text();
    // Before any script: the instant in UTC, true wherever it is read.
    expect(html).toContain(`Available until ${new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(far)}, 23:30 UTC`);
    await page.goto(`/${farSlug}`);
    const line = page.getByTestId('site-expiry');
    await expect(line).toHaveText(`Available until ${tokyoDate}`);
    await line.scrollIntoViewIfNeeded();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await scanBothSchemes(page, 'a site with an expiry', 'site-expiry');
    }

    const near = new Date(Date.now() + 3 * 86_400_000 + 5 * 3_600_000);
    const nearSlug = await publishExpiring(context.request, baseURL ?? '', 'Pier selects', near);
    await page.goto(`/${nearSlug}`);
    await expect(page.getByTestId('site-expiry')).toHaveText('This link expires in 3 days');
  });

  test('an expired site and a removed one say so in plain words, with the title and who to ask', async ({ page, context, baseURL }) => {
    test.setTimeout(300_000);
    await quietAnonymousLoop(context);
    // Expires a few seconds from now: the link answers 410 from that instant.
    const slug = await publishExpiring(context.request, baseURL ?? '', 'Garden selects', new Date(Date.now() + 4_000));
    await expect.poll(async () => (await context.request.get(`/${slug}`)).status(), { timeout: 30_000 }).toBe(410);
    await page.goto(`/${slug}`);
    await expect(page.getByRole('heading', { level: 1, name: 'This site has expired' })).toBeVisible();
    await expect(page.getByText('Garden selects')).toBeVisible();
    await expect(page.getByText(/ask Mara Lind for a new link/)).toBeVisible();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await scanBothSchemes(page, 'expired site', 'expired');
    }

    await signUp(context.request, baseURL ?? '', 'Noor Haddad');
    const site = await publishSite(context.request, baseURL ?? '', { title: 'Studio proofs', images: [{ name: 'proof.jpg', rgb: [160, 90, 70] }], settings: FREE_FEATURES });
    const projects = (await (await context.request.get('/api/creators/me/projects')).json()) as { projects?: { id: string; slug: string }[] };
    const id = projects.projects?.find((p) => p.slug === site.slug)?.id;
    expect(id, 'the published site is on the dashboard').toMatch(/^[A-Za-z0-9_-]{16,}$/);
    const deleted = await context.request.delete(`/api/projects/${id}`, { data: { confirmTitle: 'Studio proofs' }, headers: { Origin: baseURL ?? '' } });
    expect(deleted.status(), await deleted.text()).toBe(200);
    const response = await page.goto(`/${site.slug}`);
    expect(response?.status()).toBe(410);
    await expect(page.getByRole('heading', { level: 1, name: 'This site was removed' })).toBeVisible();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await scanBothSchemes(page, 'removed site', 'removed');
    }
  });
});

test('the sign-in page has its heading and form in the HTML before any script runs', async ({ request, page }) => {
  test.setTimeout(240_000);
  const html = await (await request.get('/sign-in')).text();
  expect(html).toMatch(/<h1[^>]*>Welcome back<\/h1>/);
  expect(html).toContain('<form inert=""');
  // Then the live page takes over: the form can be used.
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
  await expect(page.locator('form[inert]')).toHaveCount(0);
  await expect(page.getByLabel('Email address')).toBeFocused();
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await scanBothSchemes(page, '/sign-in', 'sign-in');
  }
});

test('the sitemap lists the demo sites', async ({ request }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const demo of ['/universal-file-template', '/photo-gallery', '/portfolio-resume', '/pitch-template']) expect(sitemap).toContain(`${demo}</loc>`);
});

test("the landing page's template cards show the template's name while a demo's picture does not exist yet", async ({ page }) => {
  test.setTimeout(120_000);
  // As on a fresh server, before the demos' card pictures are made.
  await page.route(/\/(photo-gallery|portfolio-resume|pitch-template)\/preview-/, (route) => route.fulfill({ status: 404, body: '' }));
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await settle(page, '/');
    const cards = page.locator('.template-preview');
    await cards.first().scrollIntoViewIfNeeded();
    await expect(cards).toHaveCount(3);
    for (const name of ['Photo Gallery', 'Portfolio', 'Pitch']) await expect(cards.locator('.template-preview__placeholder', { hasText: name })).toBeVisible();
    await expect(cards.locator('img[data-missing]')).toHaveCount(3);
    await scanBothSchemes(page, 'landing, demo pictures missing', 'landing-cards');
  }
});
