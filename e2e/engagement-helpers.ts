/** Publishing a site with engagement on, the way the wizard does, and the steps the creator's e2e files share. */
import { mkdirSync } from 'node:fs';
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { afterFrames } from './page-settle.ts';

export const ALL_ENGAGEMENT = { enableFavorites: true, enableComments: true, enableApprovals: true, enableAnalytics: true };

export async function makeJpeg(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export interface TPublishedSite {
  url: string;
  slug: string;
}

/**
 * POST /api/upload with the given images and settings, then waits until the site is live.
 * With a browser context's `request`, the anonymous creator cookie lands in that context.
 */
export async function publishSite(
  request: APIRequestContext,
  baseURL: string,
  options: {
    title: string;
    images: { name: string; rgb: [number, number, number] }[];
    settings?: Record<string, boolean | string>;
    /** More form fields (a password, an expiry date). */
    fields?: Record<string, string>;
  },
): Promise<TPublishedSite> {
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    title: options.title,
    description: 'Selects for review',
    authorName: 'Mara Lind',
    template: 'universal',
    settings: JSON.stringify(options.settings ?? ALL_ENGAGEMENT),
    ...options.fields,
  };
  // Playwright's multipart takes one value per key; repeated `files` parts need FormData.
  const form = new FormData();
  for (const [key, value] of Object.entries(multipart)) form.append(key, value as string);
  for (const image of options.images) {
    const bytes = await makeJpeg(900, 600, image.rgb);
    form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), image.name);
  }
  const res = await request.post('/api/upload', { multipart: form, headers: { Origin: baseURL } });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { url: string; slug: string };
  await expect.poll(async () => ((await (await request.get(`/api/sites/${body.slug}/status`)).json()) as { status: string }).status, { timeout: 30_000 }).toBe('live');
  return body;
}

/**
 * Opens a site as a visitor does, giving the page its first input (the pointer moving over it): the
 * site's viewers and their engagement controls hydrate once the visitor has done anything at all.
 */
export async function visitSite(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.mouse.move(4, 4);
  await page.mouse.move(8, 8);
}

/** The name a visitor gives in engageAsVisitor: what the creator's dashboard then shows. */
export const VISITOR_NAME = 'Nora Quist';

/** Answers the name prompt a visitor's first favourite, review or comment opens; the action then completes by itself. */
export async function giveName(page: Page, name: string, email = ''): Promise<void> {
  const prompt = page.getByRole('dialog', { name: 'What’s your name?' });
  await prompt.getByRole('textbox', { name: 'Your name' }).fill(name);
  if (email) await prompt.getByRole('textbox', { name: 'Email (optional)' }).fill(email);
  await prompt.getByRole('button', { name: 'Continue' }).click();
  await expect(prompt).toBeHidden();
}

/** Names the browser's visitor through the API (the page's cookie jar), so a test about something else meets no prompt. */
export async function nameVisitor(page: Page, baseURL: string, name: string): Promise<void> {
  const res = await page.request.put('/api/visitor/profile', { data: { name }, headers: { Origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

/** A visitor, in their own browser, views the site, favourites the first file (giving their name) and leaves a comment. */
export async function engageAsVisitor(browser: Browser, site: TPublishedSite, comment: string): Promise<void> {
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await visitSite(page, site.url);
  const controls = page.locator('[data-engagement]').first();
  await controls.getByRole('button', { name: 'Favourite' }).click();
  await giveName(page, VISITOR_NAME);
  await expect(controls.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'true');
  await controls.getByRole('button', { name: /^Comments/ }).click();
  await controls.getByRole('textbox').fill(comment);
  await controls.getByRole('button', { name: 'Post' }).click();
  await expect(controls.locator('.engagement-comment__text')).toHaveText([comment]);
  await visitor.close();
}

/** An address is already on file and the teaser was put off, so the anonymous loop's prompts stay out of the creator's pictures. */
export async function quietAnonymousLoop(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    window.localStorage.setItem(
      'dropsite.collectedEmail',
      JSON.stringify({ email: 'mara@studio.example', collected_via: 'success_page', collected_at: Date.now(), project_id: null }),
    );
    window.localStorage.setItem('dropsite.teaserDismissed', '1');
  });
}

/** Four screenshots of the page as it is, into `dir`: 1280 and 375 px wide, light and dark. */
export async function shootAllWays(page: Page, dir: string, name: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const [width, height] of [
    [1280, 900],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.evaluate(() => window.scrollTo(0, 0));
      // A chart redraws in the scheme's colours when the page reports the change, before its next frames.
      await afterFrames(page);
      await page.screenshot({ path: `${dir}/${name}-${width}-${colorScheme}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}
