/**
 * Visitor document viewers in real Chromium: the PDF viewer (the first page shown before PDF.js,
 * which loads only when the visitor turns to the viewer; stages, 'i / n', zoom, rotation,
 * keyboard, the spec's error messages, self-hosted PDF.js), the multi-PDF browser, a PowerPoint
 * file through its converted PDF, and the text document viewer.
 */
import { expect, test, type Page } from '@playwright/test';
import { hasSoffice, moveThePointer, openSiteWhenLive, pdf, presentation, publish, text } from './visitor-support.ts';

test.describe.configure({ mode: 'serial' });

function pageCounter(page: Page) {
  return page.locator('.pdf-toolbar__count');
}

async function canvasSize(page: Page): Promise<{ width: number; height: number }> {
  return page.locator('.pdf-canvas').evaluate((canvas: HTMLCanvasElement) => ({ width: canvas.clientWidth, height: canvas.clientHeight }));
}

/** Requests for PDF.js (its module, worker, fonts and data) and for the PDF's bytes. */
function recordPdfjsRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/^\/_astro\/pdf(js-|\.)/.test(url.pathname) || (/^\/api\/files\/[^/]+$/.test(url.pathname) && url.search === '?mode=preview')) seen.push(`${url.pathname}${url.search}`);
  });
  return seen;
}

test.describe('one PDF', () => {
  let slug = '';
  test.beforeAll(async ({ request }) => {
    slug = await publish(request, [pdf('contract.pdf', 3)]);
  });

  test('pages, zoom from 1 by 1.2 within 0.5-3, rotation, keys; all of PDF.js from our own origin', async ({ page, baseURL }) => {
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('data:') && new URL(request.url()).origin !== new URL(baseURL!).origin) foreign.push(request.url());
    });
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    await page.goto(`/${slug}`);
    await expect(pageCounter(page)).toHaveText('1 / 3');
    // The visitor turns to the viewer: PDF.js loads and draws the page.
    await page.locator('.pdf-stage').hover();
    await expect(page.locator('.pdf-canvas')).toBeVisible();
    await expect(page.locator('.pdf-viewer')).toHaveAttribute('data-state', 'ready');

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(pageCounter(page)).toHaveText('2 / 3');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect(pageCounter(page)).toHaveText('1 / 3');
    await expect(page.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    const zoomLabel = page.locator('.pdf-toolbar__zoom');
    await expect(zoomLabel).toHaveText('100%');
    const before = await canvasSize(page);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect(zoomLabel).toHaveText('120%');
    await expect.poll(async () => (await canvasSize(page)).width).toBeGreaterThan(before.width * 1.15);
    for (let i = 0; i < 10; i++)
      await page
        .getByRole('button', { name: 'Zoom in' })
        .click({ trial: false, force: true })
        .catch(() => undefined);
    await expect(zoomLabel).toHaveText('300%');
    await expect(page.getByRole('button', { name: 'Zoom in' })).toBeDisabled();
    await zoomLabel.click();
    await expect(zoomLabel).toHaveText('100%');
    for (let i = 0; i < 6; i++)
      await page
        .getByRole('button', { name: 'Zoom out' })
        .click({ force: true })
        .catch(() => undefined);
    await expect(zoomLabel).toHaveText('50%');
    await zoomLabel.click();

    // Portrait page turned 90°: wider than tall.
    const upright = await canvasSize(page);
    expect(upright.height).toBeGreaterThan(upright.width);
    await page.getByRole('button', { name: 'Rotate 90°' }).click();
    await expect
      .poll(async () => {
        const size = await canvasSize(page);
        return size.width > size.height;
      })
      .toBe(true);

    // Keys on the focused page.
    await page.locator('.pdf-stage').focus();
    await page.keyboard.press('End');
    await expect(pageCounter(page)).toHaveText('3 / 3');
    await page.keyboard.press('ArrowLeft');
    await expect(pageCounter(page)).toHaveText('2 / 3');
    await page.keyboard.press('+');
    await expect(zoomLabel).toHaveText('120%');

    expect(foreign).toEqual([]);
    expect(workers.some((url) => /\/_astro\/pdf\.worker[^/]*\.mjs$/.test(url))).toBe(true);
  });

  test('shows the loading stages, then the spec error messages with Try Again', async ({ page }) => {
    // Not a PDF.
    await page.route(/\/api\/files\/[^/]+\?mode=preview$/, (route) => route.fulfill({ status: 200, contentType: 'application/pdf', body: 'hello, not a pdf' }));
    await page.goto(`/${slug}`);
    await page.locator('.pdf-stage').hover();
    const card = page.getByRole('alert');
    await expect(card.getByText('Unable to load PDF')).toBeVisible();
    await expect(card.getByText('This file is not a valid PDF document.')).toBeVisible();

    // The file cannot be fetched.
    await page.unroute(/\/api\/files\/[^/]+\?mode=preview$/);
    await page.route(/\/api\/files\/[^/]+\?mode=preview$/, (route) => route.abort('internetdisconnected'));
    await card.getByRole('button', { name: 'Try Again' }).click();
    await expect(card.getByText('Unable to download PDF file. Please check your connection.')).toBeVisible();

    // Back online: Try Again loads it, going through the stages.
    await page.unroute(/\/api\/files\/[^/]+\?mode=preview$/);
    let releaseData: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (releaseData = resolve));
    await page.route(/\/api\/files\/[^/]+\?mode=preview$/, async (route) => {
      await held;
      await route.continue();
    });
    await card.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByText('Loading PDF data...')).toBeVisible();
    releaseData();
    await expect(pageCounter(page)).toHaveText('1 / 3');
    await expect(page.locator('.pdf-viewer')).toHaveAttribute('data-state', 'ready');
  });

  test('says when the PDF library cannot be loaded', async ({ page }) => {
    await page.route(/\/_astro\/pdf\.[A-Za-z0-9_-]+\.js$/, (route) => route.abort());
    await page.goto(`/${slug}`);
    await page.locator('.pdf-stage').hover();
    await expect(page.getByText('PDF viewer failed to load. Please refresh the page.')).toBeVisible();
    await expect(page.getByText('Loading PDF.js library...')).toBeHidden();
  });

  test('shows the first page at once at its size, and loads PDF.js only when the pointer comes over the viewer', async ({ page }) => {
    const pdfjs = recordPdfjsRequests(page);
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    await page.goto(`/${slug}`);
    await page.waitForLoadState('networkidle');
    // Before any input the viewer has not hydrated: the page is its picture, server-rendered.
    await expect(page.locator('astro-island[ssr]')).toHaveCount(1);

    const viewer = page.locator('.pdf-viewer');
    const picture = page.locator('.pdf-stage img.pdf-poster');
    await expect(viewer).toHaveAttribute('data-state', 'waiting');
    await expect(picture).toBeVisible();
    expect(await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
    await expect(pageCounter(page)).toHaveText('1 / 3');
    await expect(page.getByRole('document', { name: 'contract.pdf, page 1 of 3' })).toBeVisible();
    await expect(page.locator('.pdf-loading')).toHaveCount(0);
    expect(pdfjs).toEqual([]);
    expect(workers).toEqual([]);
    /** Where the stage's page is, from the corner of its scrolled content (the page and the stage may scroll meanwhile). */
    const inStage = (selector: string) =>
      page.locator(selector).evaluate((element) => {
        const stage = element.closest('.pdf-stage')!;
        const box = element.getBoundingClientRect();
        const origin = stage.getBoundingClientRect();
        return { x: box.x - origin.x + stage.scrollLeft, y: box.y - origin.y + stage.scrollTop, width: box.width, height: box.height };
      });
    const pictureBox = await inStage('.pdf-poster');
    const viewerBox = (await viewer.boundingBox())!;
    // The pointer moves elsewhere on the page: the viewer hydrates, still without PDF.js, and nothing moves.
    await moveThePointer(page);
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    await expect(viewer).toHaveAttribute('data-state', 'waiting');
    expect(await inStage('.pdf-poster')).toEqual(pictureBox);
    expect(pdfjs).toEqual([]);
    // A portrait page fits the stage's width, at most 880 px, in the page's own proportions (US Letter).
    expect(pictureBox.width).toBeGreaterThan(600);
    expect(pictureBox.width).toBeLessThanOrEqual(880);
    expect(pictureBox.height / pictureBox.width).toBeCloseTo(792 / 612, 2);

    await picture.hover();
    await expect(viewer).toHaveAttribute('data-state', 'ready');
    await expect(picture).toHaveCount(0);
    const canvas = await inStage('.pdf-canvas');
    // PDF.js draws the page where the picture was, at its size (the canvas rounds to whole pixels): nothing moves.
    for (const side of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(canvas[side] - pictureBox[side]), side).toBeLessThan(1.5);
    expect(Math.abs((await viewer.boundingBox())!.height - viewerBox.height)).toBeLessThan(1.5);
    expect(pdfjs.some((url) => /^\/_astro\/pdf\.[\w-]+\.js$/.test(url))).toBe(true);
    expect(pdfjs.some((url) => url.endsWith('?mode=preview'))).toBe(true);
    expect(workers.some((url) => /\/_astro\/pdf\.worker[^/]*\.mjs$/.test(url))).toBe(true);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(pageCounter(page)).toHaveText('2 / 3');
  });

  test('by keyboard: focus on the page loads PDF.js, and a key pressed meanwhile is carried out', async ({ page }) => {
    const pdfjs = recordPdfjsRequests(page);
    await page.goto(`/${slug}`);
    await page.waitForLoadState('networkidle');
    await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
    expect(pdfjs).toEqual([]);
    // The page (the picture until PDF.js has drawn it) takes focus and the reading keys at once: focus is the
    // first input, and a key pressed before the viewer has hydrated is carried out once it has.
    await page.getByRole('document', { name: 'contract.pdf, page 1 of 3' }).focus();
    await page.keyboard.press('End');
    await expect(pageCounter(page)).toHaveText('3 / 3');
    await expect(page.locator('.pdf-viewer')).toHaveAttribute('data-state', 'ready');
    await expect(page.getByRole('document', { name: 'contract.pdf, page 3 of 3' })).toBeFocused();
    expect(pdfjs.some((url) => /^\/_astro\/pdf\.[\w-]+\.js$/.test(url))).toBe(true);
  });

  test('with scripts off, the first page is there to read', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL: baseURL! });
    const page = await context.newPage();
    const firstPage = page.waitForResponse((response) => /\/api\/files\/[^/]+\/first-page$/.test(new URL(response.url()).pathname));
    await page.goto(`/${slug}`);
    expect((await firstPage).status()).toBe(200);
    const picture = page.locator('.pdf-stage img.pdf-poster');
    await expect(picture).toBeVisible();
    expect((await picture.boundingBox())!.height).toBeGreaterThan(700);
    await expect(page.getByRole('document', { name: 'contract.pdf, page 1 of 3' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Download contract\.pdf/ }).first()).toHaveAttribute('href', /mode=download$/);
    await context.close();
  });
});

test('three PDFs: count and pages, grid and list, preview with back, previous/next starting each at page 1 and 100%', async ({ page }) => {
  const slug = await publish(page.request, [pdf('contract.pdf', 3), pdf('licence.pdf', 2), pdf('invoice.pdf', 1)]);
  await openSiteWhenLive(page, slug, '.mpdf-header');
  await expect(page.locator('.mpdf-header__summary')).toContainText('3 PDFs');
  await expect(page.locator('.mpdf-header__summary')).toContainText('6 pages in total');
  await expect(page.locator('.mpdf-card')).toHaveCount(3);
  await page.getByRole('button', { name: 'List' }).click();
  await expect(page.locator('.mpdf-row')).toHaveCount(3);
  await page.getByRole('button', { name: 'Grid', exact: true }).click();

  await page.getByRole('button', { name: 'Preview licence.pdf' }).click();
  const back = page.getByRole('button', { name: '← Back to Grid' });
  await expect(back).toBeFocused();
  await expect(page.locator('.mpdf-preview__title')).toHaveText('licence.pdf');
  await expect(page.getByText('2 of 3')).toBeVisible();
  await expect(pageCounter(page)).toHaveText('1 / 2');
  await page.getByRole('button', { name: 'Next page' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(pageCounter(page)).toHaveText('2 / 2');

  await page.getByRole('button', { name: 'Next PDF' }).click();
  await expect(page.locator('.mpdf-preview__title')).toHaveText('invoice.pdf');
  await expect(pageCounter(page)).toHaveText('1 / 1');
  await expect(page.locator('.pdf-toolbar__zoom')).toHaveText('100%');
  await expect(page.getByRole('button', { name: 'Next PDF' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous PDF' }).click();
  await expect(pageCounter(page)).toHaveText('1 / 2');
  await expect(page.locator('.mpdf-preview__nav').getByRole('link', { name: /Download licence\.pdf/ })).toHaveAttribute('href', /mode=download$/);

  await back.click();
  await expect(page.getByRole('button', { name: 'Preview licence.pdf' })).toBeFocused();
});

test('a PowerPoint file is shown with the PDF viewer', async ({ page }) => {
  test.setTimeout(180_000);
  const isAvailable = await hasSoffice();
  if (!isAvailable && process.env.CI === 'true') throw new Error('LibreOffice (soffice) is required on CI for the presentation viewer test');
  test.skip(!isAvailable, 'LibreOffice (soffice) is not installed here: presentations are not converted');
  const slug = await publish(page.request, [await presentation('pitch-deck.pptx', 4)]);
  await page.goto(`/${slug}`);
  await expect(page.getByRole('heading', { level: 2, name: 'pitch-deck.pptx' })).toBeVisible();
  await expect(pageCounter(page)).toHaveText('1 / 4', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(pageCounter(page)).toHaveText('2 / 4');
  await expect(page.locator('.pdf-viewer')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByRole('link', { name: /Download pitch-deck\.pptx/ })).toHaveAttribute('href', /mode=download$/);
});

test('a Markdown document: a formatted card of its first 12 lines, full preview with tabs, font size, copy, keyboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const long = 'A line that goes on well past the fifty characters the card shows';
  const body = `# Delivery notes\n\n${long}\n\n- one\n- two\n\n${Array.from({ length: 20 }, (_, i) => `Line ${i + 1}`).join('\n')}\n`;
  const slug = await publish(page.request, [text('delivery-notes.md', body)]);
  // A click on 'Open Preview' before its island hydrates would do nothing.
  await openSiteWhenLive(page, slug, '.tv-card__lines');

  // The card shows the first 12 lines of a Markdown file formatted, never as its source; long lines wrap.
  const card = page.locator('.tv-card__lines--formatted');
  await expect(card.getByRole('heading', { name: 'Delivery notes' })).toBeVisible();
  await expect(card.getByRole('listitem')).toHaveText(['one', 'two']);
  await expect(card).toContainText(long);
  await expect(card).toContainText('Line 5');
  await expect(card).not.toContainText('Line 6');
  await expect(card).not.toContainText('# Delivery');
  expect(await card.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  const open = page.getByRole('button', { name: 'Open Preview' });
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Preview of delivery-notes.md' });
  await expect(dialog.getByRole('heading', { name: 'Delivery notes' })).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveCount(2);

  await dialog.getByRole('tab', { name: 'Raw' }).click();
  await expect(dialog.locator('.tv-raw')).toContainText('# Delivery notes');
  await dialog.getByRole('tab', { name: 'Raw' }).press('ArrowLeft');
  await expect(dialog.getByRole('tab', { name: 'Preview' })).toHaveAttribute('aria-selected', 'true');

  const body$ = dialog.getByRole('tabpanel');
  await expect(body$).toHaveCSS('font-size', '14px');
  await dialog.getByRole('button', { name: 'Larger text' }).click();
  await expect(body$).toHaveCSS('font-size', '16px');
  for (let i = 0; i < 6; i++)
    await dialog
      .getByRole('button', { name: 'Larger text' })
      .click({ force: true })
      .catch(() => undefined);
  await expect(dialog.getByText('24px')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Larger text' })).toBeDisabled();
  for (let i = 0; i < 8; i++)
    await dialog
      .getByRole('button', { name: 'Smaller text' })
      .click({ force: true })
      .catch(() => undefined);
  await expect(dialog.getByText('10px')).toBeVisible();

  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByText('Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(body);
  await dialog.getByRole('button', { name: 'Share' }).click();
  await expect(dialog.getByText('Link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
});
