import { expect, test, type Route } from '@playwright/test';
import { closeEmailPromptWhenShown, expectFirstFileDownloadHash, writeLargeFile } from './wizard-support.ts';

const CHUNKS = 12;
const ARRIVED_BEFORE_RELOAD = 5;

test('a reload in the middle of an upload fills the form in again and sends only the chunks that did not arrive', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const { file, sha256: expected } = await writeLargeFile(testInfo.outputDir, 'brand-film_master.mov');

  const isChunk = (url: string, method: string) => method === 'POST' && /^\/api\/upload-chunk\//.test(new URL(url).pathname);
  const calls: string[] = [];
  page.on('request', (r) => {
    const pathname = new URL(r.url()).pathname;
    if (r.method() === 'POST' && /^\/api\/(direct-upload|upload-chunk)/.test(pathname)) calls.push(isChunk(r.url(), r.method()) ? 'chunk' : pathname);
  });

  // The connection "drops" after five chunks: the rest are held, then fail as the page is reloaded.
  let passed = 0;
  let dropped = false;
  const held: Route[] = [];
  await page.route('**/api/upload-chunk/**', async (route) => {
    if (dropped) {
      await route.abort('connectionreset');
    } else if (passed < ARRIVED_BEFORE_RELOAD) {
      passed++;
      await route.continue();
    } else {
      held.push(route);
    }
  });
  page.on('dialog', (dialog) => void dialog.accept()); // 'Leave site?' while the upload runs

  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByTestId('upload-mode-badge')).toHaveText('Ultra-Fast Chunked Mode');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel(/^Site Title/).fill('Brand film, final master');
  await page.getByLabel(/^Description/).fill('Master file for review, graded and mixed');
  await page.getByLabel(/^Author Name/).fill('Ann Example');
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await page.getByRole('switch', { name: /Comments/ }).click();
  await page.getByRole('button', { name: 'Preview Site' }).click();
  await page.getByRole('button', { name: 'Publish Site' }).click();

  await expect.poll(() => held.length, { timeout: 60_000 }).toBeGreaterThan(0);
  // Every chunk that passed has been answered: the server holds exactly those five.
  // Writing five 10 MB chunks durably can take more than the default 5 s on a busy two-core machine.
  await expect.poll(() => receivedChunks(page), { timeout: 30_000 }).toBe(ARRIVED_BEFORE_RELOAD);

  // None of the held chunks (nor a retry of one) reaches the server: what it holds is exactly what arrived.
  dropped = true;
  await Promise.all(held.map((route) => route.abort('connectionreset').catch(() => undefined)));
  await page.reload();
  await page.unroute('**/api/upload-chunk/**');
  const callsBeforeReload = calls.length;
  const arrived = await receivedChunks(page);
  expect(arrived).toBe(ARRIVED_BEFORE_RELOAD);

  // The creator is offered to continue; choosing the same file again says so.
  const notice = page.getByTestId('resume-notice');
  await expect(notice.getByRole('heading', { name: 'Continue your last upload' })).toBeVisible();
  await expect(notice).toContainText('brand-film_master.mov');
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(notice.getByRole('heading', { name: 'Ready to continue' })).toBeVisible();

  // The form comes back as it was sent.
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel(/^Site Title/)).toHaveValue('Brand film, final master');
  await expect(page.getByLabel(/^Description/)).toHaveValue('Master file for review, graded and mixed');
  await expect(page.getByLabel(/^Author Name/)).toHaveValue('Ann Example');
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await expect(page.getByRole('switch', { name: /Comments/ })).toBeChecked();
  await page.getByRole('button', { name: 'Preview Site' }).click();
  await closeEmailPromptWhenShown(page);
  await page.getByRole('button', { name: 'Publish Site' }).click();

  await expect(page.getByTestId('site-url')).toHaveValue(/\/[a-z0-9]{8,}$/, { timeout: 150_000 });
  const afterReload = calls.slice(callsBeforeReload);
  expect(afterReload).not.toContain('/api/direct-upload/init');
  expect(afterReload.filter((c) => c === 'chunk')).toHaveLength(CHUNKS - arrived);
  expect(afterReload.at(-1)).toBe('/api/direct-upload/complete');

  // The published file is the very file chosen, and the site has the form's title.
  const siteUrl = await page.getByTestId('site-url').inputValue();
  await page.goto(siteUrl);
  await expect(page).toHaveTitle(/Brand film, final master/);
  await expectFirstFileDownloadHash(page, siteUrl, expected);
});

/** How many chunks of the upload the server holds durably, from the status call. */
async function receivedChunks(page: import('@playwright/test').Page): Promise<number> {
  const status = await page.request.get(`/api/upload-session/status?sessionId=${await sessionIdOf(page)}`);
  const body = (await status.json()) as { session?: { files?: Array<{ receivedChunks?: number[] }> } };
  return body.session?.files?.[0]?.receivedChunks?.length ?? 0;
}

/** The resumable session the page keeps in localStorage. */
async function sessionIdOf(page: import('@playwright/test').Page): Promise<string> {
  const raw = await page.evaluate(() => localStorage.getItem('dropsite:upload-session'));
  const parsed = JSON.parse(raw ?? '{}') as { sessionId?: string };
  if (!parsed.sessionId) throw new Error('no upload session in localStorage');
  return parsed.sessionId;
}
