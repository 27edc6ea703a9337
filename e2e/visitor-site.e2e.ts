/**
 * The rest of the visitor site in real Chromium: the video player driven by our controls, the
 * archive viewer (tree, search, sort, selection downloads), a mixed site in its template's look
 * (no visitor switcher; it follows the visitor's light/dark setting), the contact footer, a 375 px
 * phone and reduced motion, and a font's specimen.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { moveThePointer, pdf, photos, publish, text, video, zip } from './visitor-support.ts';

test.describe.configure({ mode: 'serial' });

const currentTime = (page: Page) => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);

test('a video plays through our controls: play, pause, ±10 s, speed, volume 75 and mute; its real figures in one line, no engineering panels', async ({ page }) => {
  const slug = await publish(page.request, [await video('teaser.mp4', 3)]);
  await page.goto(`/${slug}`);
  // The player (and its volume of 75) runs once its island hydrates, on the visitor's first input.
  await moveThePointer(page);
  const player = page.locator('.vv-player');
  const videoEl = page.locator('video');
  await expect(videoEl).toHaveAttribute('poster', /\/poster$/);
  await expect.poll(() => videoEl.evaluate((v: HTMLVideoElement) => v.volume)).toBeCloseTo(0.75);
  const facts = page.getByLabel('Video details');
  await expect(facts).toContainText('640 × 360 (360p)');
  await expect(facts).toContainText('0:03');
  await expect(facts).toContainText(/MP4 · H\.264 \/ AAC/);
  // Figures for engineers are not a visitor's business.
  for (const panel of ['Bitrate', 'Status', 'Ready', 'Position', 'Volume 75%', 'Quick actions']) await expect(page.locator('.video-viewer')).not.toContainText(panel);

  // Headless Chromium may refuse sound without a gesture: mute first, as a visitor could.
  await player.getByRole('button', { name: 'Mute' }).click();
  expect(await videoEl.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
  await player.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => currentTime(page), { timeout: 10_000 }).toBeGreaterThan(0.5);
  await player.getByRole('button', { name: 'Pause' }).click();
  const paused = await currentTime(page);
  await page.waitForTimeout(400);
  expect(await currentTime(page)).toBeCloseTo(paused, 1);
  await expect(player.getByRole('button', { name: 'Play', exact: true })).toBeVisible();

  await player.getByRole('button', { name: 'Back 10 seconds' }).click();
  await expect.poll(() => currentTime(page)).toBe(0);
  await player.getByRole('button', { name: 'Forward 10 seconds' }).click();
  await expect.poll(() => currentTime(page)).toBeGreaterThan(2.5);

  await player.getByLabel('Playback speed').selectOption('1.5');
  expect(await videoEl.evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(1.5);
  await player.getByRole('button', { name: 'Unmute' }).click();
  expect(await videoEl.evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);
  await player.getByRole('slider', { name: 'Volume' }).fill('40');
  expect(await videoEl.evaluate((v: HTMLVideoElement) => v.volume)).toBeCloseTo(0.4);

  // Keys on the player: J goes back 10 s.
  await player.getByRole('button', { name: 'Back 10 seconds' }).focus();
  await page.keyboard.press('j');
  await expect.poll(() => currentTime(page)).toBeLessThan(1.5);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download teaser.mp4' }).click()]);
  expect(download.suggestedFilename()).toBe('teaser.mp4');
});

test('an archive: tree with expand and collapse, search, a sort that sorts, selection downloads', async ({ page }) => {
  const archive = await zip('selects.zip', [
    { path: 'raw/frame-01.cr2', data: Buffer.alloc(40_000, 3), mtime: new Date('2025-01-03T10:00:00Z') },
    { path: 'raw/frame-02.cr2', data: Buffer.alloc(90_000, 5), mtime: new Date('2025-01-05T10:00:00Z') },
    { path: 'edited/frame-01.jpg', data: Buffer.alloc(20_000, 9), mtime: new Date('2025-01-04T10:00:00Z') },
    { path: 'README.txt', data: 'Thank you!\n', mtime: new Date('2025-01-01T10:00:00Z') },
    { path: 'contract.pdf', data: Buffer.alloc(60_000, 2), mtime: new Date('2025-01-02T10:00:00Z') },
  ]);
  const slug = await publish(page.request, [archive]);
  await page.goto(`/${slug}`);
  const tree = page.getByRole('tree', { name: 'Contents of selects.zip' });
  const names = () => tree.getByRole('treeitem').evaluateAll((items) => items.map((item) => item.getAttribute('data-path')));
  await expect(tree).toBeVisible();
  expect(await names()).toEqual(['edited', 'edited/frame-01.jpg', 'raw', 'raw/frame-01.cr2', 'raw/frame-02.cr2', 'contract.pdf', 'README.txt']);

  const info = page.getByRole('region', { name: 'Archive information' });
  await expect(info.getByText('ZIP')).toBeVisible();
  await expect(info.locator('.vi-info__row', { hasText: 'Files' })).toContainText('5');

  // The click is the page's first input: the viewer hydrates, then carries out the click it held.
  await page.getByRole('button', { name: 'Collapse All' }).click();
  await expect.poll(names).toEqual(['edited', 'raw', 'contract.pdf', 'README.txt']);
  await page.getByRole('button', { name: 'Expand raw' }).click();
  expect(await names()).toEqual(['edited', 'raw', 'raw/frame-01.cr2', 'raw/frame-02.cr2', 'contract.pdf', 'README.txt']);
  await page.getByRole('button', { name: 'Expand All' }).click();

  await page.getByLabel('Sort by').selectOption('size');
  expect(await names()).toEqual(['raw', 'raw/frame-02.cr2', 'raw/frame-01.cr2', 'edited', 'edited/frame-01.jpg', 'contract.pdf', 'README.txt']);
  await page.getByLabel('Sort by').selectOption('date');
  expect(await names()).toEqual(['edited', 'edited/frame-01.jpg', 'raw', 'raw/frame-02.cr2', 'raw/frame-01.cr2', 'contract.pdf', 'README.txt']);
  // Type: the kind of file (a text document before a PDF), then the extension.
  await page.getByLabel('Sort by').selectOption('type');
  expect((await names()).slice(-2)).toEqual(['README.txt', 'contract.pdf']);

  const search = page.getByRole('searchbox', { name: 'Search files' });
  await search.fill('frame-01');
  expect(await names()).toEqual(['edited', 'edited/frame-01.jpg', 'raw', 'raw/frame-01.cr2']);
  await search.fill('nothing-like-this');
  await expect(page.getByText('No files found matching "nothing-like-this"')).toBeVisible();
  await search.fill('');

  // Keyboard: the tree is one tab stop; arrows move, Space selects.
  await page.getByLabel('Sort by').selectOption('name');
  await tree.getByRole('treeitem').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(tree.getByRole('treeitem', { name: /frame-01\.jpg/ })).toBeFocused();
  await page.keyboard.press(' ');
  await expect(page.getByText('1 selected')).toBeVisible();
  const [single] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Selected' }).click()]);
  expect(single.suggestedFilename()).toBe('frame-01.jpg');

  await page.getByRole('checkbox', { name: 'Select raw' }).check();
  await expect(page.getByText('3 selected')).toBeVisible();
  const [several] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Selected' }).click()]);
  expect(several.suggestedFilename()).toMatch(/\.zip$/);
  await page.getByRole('button', { name: 'Clear Selection' }).click();
  await expect(page.getByText('5 files', { exact: true })).toBeVisible();
});

test('a font: its specimen drawn in the font, a sample the visitor types and sizes from the keyboard, on a 375 px phone', async ({ page }) => {
  // A real TrueType font that the repository already holds (PDF.js's standard fonts).
  const ttf = await readFile(path.resolve(import.meta.dirname, '../node_modules/pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf'));
  const slug = await publish(page.request, [{ name: 'liberation-sans.ttf', type: 'font/ttf', bytes: ttf }]);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/${slug}`);
  await expect(page.locator('[data-viewer="font"]')).toContainText('TTF');
  await moveThePointer(page);
  const viewer = page.getByRole('article', { name: 'liberation-sans.ttf: font specimen' });
  await expect(viewer).toHaveAttribute('data-state', 'ready');
  expect(await page.evaluate(() => [...document.fonts].some((f) => f.family.startsWith('dropsite-font-') && f.status === 'loaded'))).toBe(true);
  await viewer.getByLabel('Sample text').fill('Dropsite sets type');
  const sample = viewer.getByTestId('font-sample');
  await expect(sample).toHaveText('Dropsite sets type');
  await expect(sample).toHaveCSS('font-family', /^"?dropsite-font-/);
  await viewer.getByRole('slider', { name: /Text size/ }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(sample).toHaveCSS('font-size', '40px');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test.describe('a mixed site, its hero, theme and footer', () => {
  let slug = '';
  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    slug = await publish(
      request,
      [
        ...(await photos(3)),
        pdf('brief.pdf', 2),
        await video('teaser.mp4', 2),
        await zip('assets.zip', [{ path: 'logo/mark.svg', data: '<svg/>' }]),
        text('notes.txt', 'First line\nSecond line\n'),
      ],
      // The footer's contact email is its own field; the notification address is never shown to visitors.
      { settings: JSON.stringify({ enableNotifications: true, notificationEmail: 'mira@example.com' }), contactInfo: JSON.stringify({ email: 'mira@example.com' }) },
    );
  });

  test('images in one gallery, every other file its own viewer, an index of all files', async ({ page }) => {
    await page.goto(`/${slug}`);
    await expect(page.locator('.gallery-viewer')).toHaveAttribute('data-layout', 'grid');
    await expect(page.locator('.gv-tile')).toHaveCount(3);
    const viewers = await page.locator('[data-viewer]').evaluateAll((sections) => sections.map((s) => s.getAttribute('data-viewer')));
    expect(viewers).toEqual(['pdf', 'video', 'archive', 'text']);
    await expect(page.locator('.pdf-toolbar__count')).toHaveText('1 / 2');
    await expect(page.getByRole('heading', { level: 2, name: 'All files' })).toBeVisible();
  });

  test("the hero layout is the creator's: no layout button, and a layout a visitor stored under earlier versions is ignored", async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('dropsite-hero-layout', 'featured'));
    await page.goto(`/${slug}`);
    const root = page.locator('html');
    // The universal template's layout (its demo's): minimal.
    await expect(root).toHaveAttribute('data-hero-layout', 'minimal');
    await expect(page.getByRole('button', { name: /Hero layout/ })).toHaveCount(0);
    await expect(page.getByText('Featured Presentation')).toBeHidden();
  });

  test("no theme switcher: the template's style follows the visitor's light/dark setting, and a stored theme is ignored", async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('dropsite-theme', 'creative-dark'));
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`/${slug}`);
    const root = page.locator('html');
    await expect(root).toHaveAttribute('data-style', 'nature');
    await expect(root).toHaveAttribute('data-color-mode', 'auto');
    expect(await root.getAttribute('data-theme')).toBeNull();
    await expect(page.getByRole('button', { name: /Visual style/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Switch to (dark|light) mode/ })).toHaveCount(0);
    // Nature light, then nature dark as soon as the device turns dark: no reload, no script.
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(251, 250, 245)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(14, 19, 14)');
  });

  test('the contact footer', async ({ page }) => {
    await page.goto(`/${slug}`);
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('heading', { name: 'Connect with Mira Solberg' })).toBeVisible();
    await expect(footer.getByText("Have questions or want to work together? I'd love to hear from you.")).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Get in touch' })).toHaveAttribute('href', 'mailto:mira@example.com');
    await expect(footer.getByRole('link', { name: 'Download all files' })).toHaveAttribute('href', `/api/sites/${slug}/download`);
    await expect(footer.getByText('Powered by Dropsite')).toBeVisible();
  });

  test('a 375 px phone: nothing wider than the screen, the viewers usable', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`/${slug}`);
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 500) {
        window.scrollTo(0, y);
        // Two frames: the scroll is painted and the lazy viewers' intersection observers have run.
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }
    });
    await expect(page.locator('.pdf-toolbar__count')).toHaveText('1 / 2');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // No design controls for visitors on a phone either.
    await expect(page.getByRole('button', { name: /Visual style|Hero layout|Switch to dark mode/ })).toHaveCount(0);
    await page.locator('.gv-tile').first().click();
    await expect(page.getByRole('dialog').locator('.lightbox__counter')).toHaveText('1 of 3');
    await page.getByRole('dialog').getByRole('button', { name: 'Next image' }).click();
    await expect(page.getByRole('dialog').locator('.lightbox__counter')).toHaveText('2 of 3');
  });

  test('reduced motion turns transitions and animations off', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`/${slug}`);
    const duration = await page
      .locator('.gv-tile')
      .first()
      .evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(parseFloat(duration)).toBeLessThan(0.001);
  });
});
