/**
 * The site's Content-Security-Policy allows its inline scripts by hash only: every viewer, the
 * light/dark script that runs before first paint (on a site that lets visitors switch), and the view beacon must work under it
 * with no violation. The wizard's preview runs in a sandboxed frame of its own opaque origin and
 * still shows the creator's files. A site page hands out no visitor cookie; the page's calls share
 * the one the first API call gets.
 */
import { expect, test, type BrowserContext } from '@playwright/test';
import { ALL_ENGAGEMENT, publishSite, giveName } from './engagement-helpers.ts';
import { hydrateAll, moveThePointer, pdf, photos, publish, text, video, zip } from './visitor-support.ts';
import { closeEmailPromptWhenShown, expectPreviewImageDecoded, threeImages, walkToPreview } from './wizard-support.ts';

/** Collects every CSP violation of every page and frame of the context (the event, and Chromium's console report). */
async function recordViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('reportCspViolation', (_source, line: string) => void violations.push(line));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { reportCspViolation?: (line: string) => void }).reportCspViolation;
      const line = `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`;
      // An opaque-origin frame has no binding of its own: it tells the console, read below.
      if (report) void report(line);
      else console.error(`CSP violation: ${line}`);
    });
  });
  context.on('console', (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test.describe('sites under their CSP', () => {
  test.describe.configure({ timeout: 180_000 });
  let mixed = '';
  let singlePdf = '';
  let gallery = '';
  let singleImage = '';

  test.beforeAll(async ({ request, baseURL }) => {
    test.setTimeout(240_000);
    // Visitors may switch light/dark: the page has its boot script.
    const settings = { settings: JSON.stringify(ALL_ENGAGEMENT), visitorModeToggle: 'true' };
    [mixed, singlePdf, gallery, singleImage] = await Promise.all([
      publish(
        request,
        [
          ...(await photos(2, 'mixed')),
          pdf('brief.pdf', 2),
          await video('clip.mp4', 2),
          await zip('assets.zip', [
            { path: 'logo.svg', data: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
            { path: 'docs/readme.txt', data: 'Read me' },
          ]),
          text('notes.md', '# Notes\n\nThe delivery is on Friday.\n'),
        ],
        settings,
      ),
      publish(request, [pdf('contract.pdf', 3)], settings),
      publish(request, await photos(4, 'gallery'), settings),
      publishSite(request, baseURL!, { title: 'One picture', images: [{ name: 'first-dance.jpg', rgb: [150, 80, 120] }], fields: { visitorModeToggle: 'true' } }).then(
        (site) => site.slug,
      ),
    ]);
  });

  test('every viewer, the light/dark boot script and the beacon run with no CSP violation', async ({ page, context }) => {
    const violations = await recordViolations(context);
    // The visitor's stored dark pick: the boot script in <head> must apply it before first paint.
    await context.addInitScript((key) => {
      try {
        localStorage.setItem(key, 'dark');
      } catch {
        // storage off: nothing to apply
      }
    }, `dropsite-color-mode:${mixed}`);

    await page.goto(`/${mixed}`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'nature-dark');
    await hydrateAll(page);
    await expect(page.locator('video').first()).toBeAttached();
    // PDF.js loads when the visitor turns to the viewer.
    await page.locator('.pdf-stage').first().hover();
    await expect(page.locator('.pdf-viewer').first()).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Open Preview' }).first().click();
    await expect(page.getByRole('dialog', { name: 'Preview of notes.md' })).toBeVisible();
    await page.keyboard.press('Escape');

    await page.goto(`/${singlePdf}`);
    await hydrateAll(page);
    await page.locator('.pdf-stage').hover();
    await expect(page.locator('.pdf-viewer')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Next page' }).click();

    await page.goto(`/${gallery}`);
    await hydrateAll(page);
    await page.locator('.gv-tile').nth(1).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('.lightbox__counter')).toHaveText('2 of 4');
    await page.keyboard.press('ArrowRight');
    await expect(dialog.locator('.lightbox__counter')).toHaveText('3 of 4');
    await page.keyboard.press('Escape');

    await page.goto(`/${singleImage}`);
    await hydrateAll(page);
    await expect(page.locator('[data-engagement]').first()).toBeVisible();

    expect(violations).toEqual([]);
  });

  test('a page revalidated by its ETag (a 304) keeps its own policy: its inline scripts still run', async ({ page, context }) => {
    const violations = await recordViolations(context);
    await context.addInitScript((key) => {
      try {
        localStorage.setItem(key, 'dark');
      } catch {
        // storage off: nothing to apply
      }
    }, `dropsite-color-mode:${singleImage}`);
    await page.goto(`/${singleImage}`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'nature-dark');
    const etag = (await page.request.get(`/${singleImage}`, { headers: { 'accept-encoding': 'br' } })).headers().etag;
    // The strong tag of the stored Brotli variant: 22 base64url characters of its bytes' SHA-256.
    expect(etag).toMatch(/^"[\w-]{22}"$/);

    // The browser asks again with the page's ETag and is answered 304 from the stored Brotli variant.
    const revalidation = page.waitForRequest(async (request) => request.resourceType() === 'document' && (await request.allHeaders())['if-none-match'] === etag);
    await page.reload();
    await revalidation;
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'nature-dark');
    await hydrateAll(page);
    await expect(page.locator('[data-engagement]').first()).toBeVisible();
    expect(violations).toEqual([]);
  });

  test('a site page sets no cookie; the page’s first call gets one and the other calls share it', async ({ page, context }) => {
    const issued: string[] = [];
    const documentCookies: (string | null)[] = [];
    const read: Promise<void>[] = [];
    page.on('response', (response) => {
      read.push(
        response.headerValue('set-cookie').then((setCookie) => {
          if (response.request().resourceType() === 'document') documentCookies.push(setCookie);
          else if (setCookie && /dropsite_vid=/.test(setCookie)) issued.push(new URL(response.url()).pathname);
        }),
      );
    });
    // The view beacon goes out as the page loads, with no cookie yet; the engagement state once the viewer
    // hydrates on the visitor's first input.
    await page.goto(`/${singleImage}`);
    await moveThePointer(page);
    const favourite = page.locator('[data-engagement]').first().getByRole('button', { name: 'Favourite' });
    await expect(favourite).toHaveAttribute('aria-pressed', 'false');
    await favourite.click();
    // The visitor names themselves (one more call, on the same cookie) and the favourite goes through.
    await giveName(page, 'Ada Palmer');
    await expect(favourite).toHaveAttribute('aria-pressed', 'true');

    // The second visit's calls: its view beacon, and the engagement state once the viewer hydrates.
    const beacon = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/analytics/view');
    const state = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/engagement/state');
    await page.reload();
    await moveThePointer(page);
    await expect(page.locator('[data-engagement]').first().getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'true');
    await Promise.all([beacon, state]);
    await Promise.all(read);
    expect(documentCookies).toEqual([null, null]);
    // One visitor id, issued once, shared by every call of both visits.
    expect(issued).toHaveLength(1);
    expect((await context.cookies()).filter((c) => c.name === 'dropsite_vid')).toHaveLength(1);
  });
});

test('the wizard preview runs sandboxed in its own origin, under the site CSP, and shows the creator’s images', async ({ page, context }) => {
  test.setTimeout(120_000);
  const violations = await recordViolations(context);
  const images = await threeImages(21);
  await closeEmailPromptWhenShown(page);
  await page.goto('/');
  const brief = pdf('brief.pdf', 2);
  await page.getByTestId('file-input').setInputFiles([...images, { name: brief.name, mimeType: brief.type, buffer: brief.bytes }]);
  await walkToPreview(page);

  const frame = page.frameLocator('[data-testid="preview-frame"]');
  await expect(frame.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('preview-frame')).toHaveAttribute('sandbox', 'allow-scripts allow-downloads');
  await expect(frame.locator('img[src^="blob:"]').first()).toBeAttached();
  await expectPreviewImageDecoded(frame);

  // The PDF viewer reads the creator's local file (a blob: URL the frame made) with PDF.js from /_astro.
  const viewer = frame.locator('.pdf-viewer').first();
  await viewer.scrollIntoViewIfNeeded();
  await expect(viewer).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });

  const inside = page.frames().find((f) => f.url().includes('/api/preview/frame'));
  expect(inside).toBeDefined();
  // An opaque origin: the preview's scripts reach neither the dashboard's document nor its storage or cookies.
  const reach = await inside!.evaluate(() => {
    const tries = (f: () => unknown) => {
      try {
        f();
        return 'reached';
      } catch {
        return 'blocked';
      }
    };
    return { origin: window.origin, parent: tries(() => parent.document.title), storage: tries(() => localStorage.length), cookie: tries(() => document.cookie) };
  });
  expect(reach).toEqual({ origin: 'null', parent: 'blocked', storage: 'blocked', cookie: 'blocked' });
  expect(violations).toEqual([]);
});
