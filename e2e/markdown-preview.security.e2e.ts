/**
 * The Markdown preview in a real browser: its parser is fetched only when a preview opens,
 * raw HTML stays text, only http(s) and mailto links become links (opening in a new tab with no
 * opener), images from other hosts are never requested, and a hostile file at the preview
 * limit does not freeze the tab (it is parsed in a worker).
 */
import { expect, test } from '@playwright/test';
import { openSiteWhenLive, publish, text } from './visitor-support.ts';

test.describe.configure({ mode: 'serial' });

const HOSTILE = [
  '# Notes',
  '',
  '<img src="https://tracker.example/pixel.gif" onerror="window.__pwned = true">',
  '',
  '<script>window.__pwned = true</script>',
  '',
  '[bad](javascript:window.__pwned=true) [data](data:text/html,hi) [ok](https://example.com/page) [mail](mailto:hi@example.com)',
  '',
  '![tracking](https://tracker.example/pixel.png)',
  '',
].join('\n');

test('the Markdown parser loads on demand, keeps HTML as text and links safe', async ({ page }) => {
  const slug = await publish(page.request, [text('notes.md', HOSTILE)]);
  const scripts: string[] = [];
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.js')) scripts.push(url.pathname);
    if (url.hostname.endsWith('example')) foreign.push(url.href);
  });
  await openSiteWhenLive(page, slug, '.text-viewer');
  expect(scripts.some((path) => /MarkdownPreview/.test(path))).toBe(false);

  const dialog = page.getByRole('dialog', { name: 'Preview of notes.md' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Open Preview' }).click();
    await expect(dialog).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(dialog.getByRole('heading', { name: 'Notes' })).toBeVisible();
  expect(scripts.some((path) => /MarkdownPreview/.test(path))).toBe(true);

  const panel = dialog.getByRole('tabpanel');
  await expect(panel).toContainText('<script>window.__pwned = true</script>');
  await expect(panel).toContainText('<img src="https://tracker.example/pixel.gif"');
  await expect(panel.locator('img, script, iframe')).toHaveCount(0);
  // An image becomes a plain link to it: nothing is fetched unless the visitor follows it.
  const links = panel.getByRole('link');
  expect(await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')))).toEqual([
    'https://example.com/page',
    'mailto:hi@example.com',
    'https://tracker.example/pixel.png',
  ]);
  for (const link of await links.all()) {
    await expect(link).toHaveAttribute('rel', /noopener/);
    await expect(link).toHaveAttribute('target', '_blank');
  }
  expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
  expect(foreign).toEqual([]);
});

test('a hostile Markdown file at the preview limit opens without freezing the tab', async ({ page }) => {
  const hostile = '['.repeat(2 * 1024 * 1024);
  const slug = await publish(page.request, [text('brackets.md', hostile)]);
  await openSiteWhenLive(page, slug, '.text-viewer');
  const dialog = page.getByRole('dialog', { name: 'Preview of brackets.md' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Open Preview' }).click();
    await expect(dialog).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  // The page answers while the file is parsed (off the main thread); the quadratic parser froze it for minutes.
  for (let i = 0; i < 5; i++) {
    const started = Date.now();
    await page.evaluate(() => document.title);
    expect(Date.now() - started).toBeLessThan(2000);
    await page.waitForTimeout(200);
  }
  await expect(dialog.getByRole('tabpanel')).toContainText('[[[[[[[[', { timeout: 60_000 });
  await dialog.getByRole('tab', { name: 'Raw' }).click();
  await expect(dialog.getByRole('tab', { name: 'Raw' })).toHaveAttribute('aria-selected', 'true');
});
