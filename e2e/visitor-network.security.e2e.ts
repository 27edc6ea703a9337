/**
 * A visitor's page settles: once it has loaded (and once the visitor has scrolled through it), no
 * request is left open, none fails, none is answered with an error and nothing breaks the site's
 * Content-Security-Policy. A site with pictures, a PDF, a video, a ZIP and text files, with
 * analytics on so the view beacon is the page's first call. A request that never completes keeps
 * the visitor's browser busy (and its battery) for as long as the page is open.
 */
import { expect, test, type BrowserContext, type Page, type Request } from '@playwright/test';
import { ALL_ENGAGEMENT } from './engagement-helpers.ts';
import { hydrateAll, pdf, photos, publish, text, video, zip } from './visitor-support.ts';

interface TNetworkLog {
  pending: Map<Request, string>;
  failed: string[];
  errors: string[];
  violations: string[];
  seen: string[];
}

/** Every request of the page, every failure, every answer of 400 or more, and every CSP violation (event or console report). */
async function recordNetwork(context: BrowserContext, page: Page): Promise<TNetworkLog> {
  const log: TNetworkLog = { pending: new Map(), failed: [], errors: [], violations: [], seen: [] };
  await context.exposeBinding('reportCspViolation', (_source, line: string) => void log.violations.push(line));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { reportCspViolation?: (line: string) => void }).reportCspViolation;
      if (report) void report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) log.violations.push(message.text());
  });
  const describeRequest = (request: Request) => `${request.method()} ${new URL(request.url()).pathname}${new URL(request.url()).search}`;
  page.on('request', (request) => {
    log.pending.set(request, describeRequest(request));
    log.seen.push(describeRequest(request));
  });
  page.on('requestfinished', async (request) => {
    log.pending.delete(request);
    const status = (await request.response())?.status() ?? 0;
    if (status >= 400) log.errors.push(`${describeRequest(request)} answered ${status}`);
  });
  page.on('requestfailed', (request) => {
    log.pending.delete(request);
    log.failed.push(`${describeRequest(request)}: ${request.failure()?.errorText ?? 'failed'}`);
  });
  return log;
}

/** Waits until no request of the page is open (polled), then answers what is still open. */
async function openRequestsAfterSettling(log: TNetworkLog, withinMs: number): Promise<string[]> {
  await expect
    .poll(() => log.pending.size, { timeout: withinMs, intervals: [100] })
    .toBe(0)
    .catch(() => {});
  return [...log.pending.values()];
}

test.describe('a visitor page settles', () => {
  test.describe.configure({ timeout: 180_000 });
  let mixed = '';

  test.beforeAll(async ({ request }) => {
    test.setTimeout(240_000);
    mixed = await publish(
      request,
      [
        ...(await photos(3, 'settle')),
        pdf('brief.pdf', 2),
        await video('clip.mp4', 2),
        await zip('assets.zip', [{ path: 'docs/readme.txt', data: 'Read me' }]),
        text('notes.txt', 'The delivery is on Friday.\n'),
        text('readme.md', '# Read me\n\nThe **final** cut.\n'),
      ],
      { settings: JSON.stringify(ALL_ENGAGEMENT) },
    );
  });

  test('no request stays open, fails or is refused, and no CSP violation: loaded, scrolled through, text read, video played', async ({ page, context }) => {
    const log = await recordNetwork(context, page);

    // Loaded with no interaction: every request completes, so the network goes idle.
    await page.goto(`/${mixed}`);
    await expect.poll(() => log.seen.includes('POST /api/analytics/view'), { message: 'the view beacon goes out' }).toBe(true);
    expect(await openRequestsAfterSettling(log, 3_000)).toEqual([]);
    await page.waitForLoadState('networkidle', { timeout: 5_000 });

    // Scrolled through: every island hydrates and its calls (engagement state, the poster) complete; the
    // pointer over the PDF viewer loads PDF.js and the PDF.
    await hydrateAll(page);
    await page.locator('.pdf-stage').first().hover();
    await expect(page.locator('.pdf-viewer').first()).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.waitForLoadState('networkidle', { timeout: 20_000 });
    expect(await openRequestsAfterSettling(log, 5_000)).toEqual([]);

    // The visitor reads the text files (markdown renders in a worker) and plays the video for a moment: those requests complete too.
    const previews = page.getByRole('button', { name: 'Open Preview' });
    await expect(previews).toHaveCount(2);
    await previews.nth(0).click();
    await expect(page.getByRole('dialog', { name: 'Preview of notes.txt' })).toContainText('The delivery is on Friday.');
    await page.keyboard.press('Escape');
    await previews.nth(1).click();
    await expect(page.getByRole('dialog', { name: 'Preview of readme.md' }).locator('strong')).toHaveText('final');
    await page.keyboard.press('Escape');
    const clip = page.locator('video').first();
    await clip.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      // A second of playback (or all of a shorter clip), as the element reports it.
      const played = new Promise<void>((resolve) => {
        const check = () => {
          if (element.ended || element.currentTime >= Math.min(1, element.duration)) resolve();
        };
        element.addEventListener('timeupdate', check);
        element.addEventListener('ended', check);
      });
      await element.play();
      await played;
      element.pause();
    });
    await page.waitForLoadState('networkidle', { timeout: 20_000 });
    expect(await openRequestsAfterSettling(log, 5_000)).toEqual([]);
    expect(log.seen).toEqual(expect.arrayContaining([expect.stringMatching(/^GET \/api\/files\/[\w-]+\?mode=preview$/)]));

    expect(log.failed).toEqual([]);
    expect(log.errors).toEqual([]);
    expect(log.violations).toEqual([]);
  });
});
