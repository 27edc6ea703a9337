/**
 * The creator's look in a real Chromium: a site published with a style, a colour mode and a hero
 * layout renders exactly that; a site that follows the visitor is dark from the first paint in a
 * dark browser (scripts off), a pinned light one stays light; visitors get no style or layout
 * switcher, and a light/dark toggle only when the creator allows it; the password gate names the
 * site in the visitor's dark mode; the wizard lets the creator choose and its preview shows it.
 * Screenshots go to /tmp/shots/look/.
 */
import { mkdir } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { photos, publish } from './visitor-support.ts';
import { closeEmailPromptWhenShown, threeImages } from './wizard-support.ts';

const SHOTS = '/tmp/shots/look';
const PASSWORD = 'harbour lights 7';

/** A theme's page background as the browser reports it ('#0e130e' → 'rgb(14, 19, 14)'). */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
const BACKGROUNDS = { 'creative-dark': '#120b1a', 'nature-light': '#fbfaf5', 'nature-dark': '#0e130e', 'elegant-light': '#fcfaf6' };

async function shoot(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

test.describe('the look a creator chose', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let auto = '';
  let pinnedLight = '';
  let withToggle = '';
  let locked = '';

  test.beforeAll(async ({ request }) => {
    test.setTimeout(240_000);
    [auto, pinnedLight, withToggle, locked] = await Promise.all([
      publish(request, await photos(2), { title: 'Harbour Lights', style: 'creative', colorMode: 'auto', heroLayout: 'split' }),
      publish(request, await photos(1), { title: 'Always light', style: 'nature', colorMode: 'light', heroLayout: 'centered' }),
      publish(request, await photos(1), { title: 'Visitors choose', style: 'nature', colorMode: 'auto', visitorModeToggle: 'true' }),
      publish(request, await photos(1), { title: 'Private proofs', authorName: 'Ana Ruiz', template: 'client-delivery', password: PASSWORD }),
    ]);
  });

  test('a site that follows the visitor is dark from the first paint in a dark browser, scripts off, in its style and layout', async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: 'dark', javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`/${auto}`);
    const root = page.locator('html');
    // In the HTML as served: the style and layout, no theme (the media query picks dark).
    await expect(root).toHaveAttribute('data-style', 'creative');
    await expect(root).toHaveAttribute('data-hero-layout', 'split');
    expect(await root.getAttribute('data-theme')).toBeNull();
    await expect(page.locator('body')).toHaveCSS('background-color', rgb(BACKGROUNDS['creative-dark']));
    await expect(page.locator('.hero__media img')).toBeVisible();
    await expect(page.getByRole('button', { name: /Visual style|Hero layout|Switch to (dark|light) mode/ })).toHaveCount(0);
    await shoot(page, 'site-auto-dark-1280');
    await context.close();
  });

  test('a site pinned light stays light in a dark browser; no design controls for visitors, on a phone too', async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    await page.goto(`/${pinnedLight}`);
    const root = page.locator('html');
    await expect(root).toHaveAttribute('data-theme', 'nature-light');
    await expect(root).toHaveAttribute('data-hero-layout', 'centered');
    await expect(page.locator('body')).toHaveCSS('background-color', rgb(BACKGROUNDS['nature-light']));
    await expect(page.getByRole('button', { name: /Visual style|Hero layout|Switch to (dark|light) mode/ })).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shoot(page, 'site-pinned-light-375-dark-browser');
    await context.close();
  });

  test('where the creator allows it, a visitor switches light/dark with the keyboard; the pick is kept for that site and applied before paint', async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: 'light', viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    await page.goto(`/${withToggle}`);
    const root = page.locator('html');
    const toggle = page.getByRole('button', { name: 'Switch to dark mode' });
    await expect(toggle).toBeVisible();
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(root).toHaveAttribute('data-theme', 'nature-dark');
    await expect(page.locator('body')).toHaveCSS('background-color', rgb(BACKGROUNDS['nature-dark']));
    await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeFocused();
    await shoot(page, 'site-toggle-375-dark');

    // On the next visit the boot script applies it before any module script runs.
    await page.route(/\/_astro\/.*\.js$/, (route) => route.abort());
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { themeAtLoad: string }).themeAtLoad = document.documentElement.dataset.theme ?? '';
      });
    });
    await page.reload();
    expect(await page.evaluate(() => (window as unknown as { themeAtLoad: string }).themeAtLoad)).toBe('nature-dark');
    // Another site does not take it.
    await page.goto(`/${pinnedLight}`);
    await expect(root).toHaveAttribute('data-theme', 'nature-light');
    await context.close();
  });

  test("the password gate of a locked site shows its title and author in the visitor's dark mode, and nothing of the site", async ({ browser }) => {
    for (const [width, name] of [
      [1280, 'gate-1280-dark'],
      [375, 'gate-375-dark'],
    ] as const) {
      const context = await browser.newContext({ colorScheme: 'dark', viewport: { width, height: width < 500 ? 740 : 900 } });
      const page = await context.newPage();
      const response = await page.goto(`/${locked}`);
      expect(response?.status()).toBe(401);
      await expect(page.getByRole('heading', { level: 1, name: 'Private proofs' })).toBeVisible();
      await expect(page.getByText('By Ana Ruiz')).toBeVisible();
      await expect(page.getByLabel('Password')).toBeFocused();
      // Client Delivery's look is minimal and dark: the gate is dark.
      await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(12, 14, 18)');
      expect(await page.locator('img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).src.slice(0, 23)))).toEqual(
        (await page.locator('.cover img').count()) > 0 ? ['data:image/jpeg;base64,'] : [],
      );
      expect(await page.content()).not.toContain('/api/files/');
      await shoot(page, name);
      await context.close();
    }
    const light = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 900 } });
    const page = await light.newPage();
    await page.goto(`/${locked}`);
    await shoot(page, 'gate-1280-light');
    await light.close();
  });
});

test('the wizard: each template with its picture and its demo look; the creator picks style, light or dark and layout, and the preview shows them', async ({ browser }) => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await closeEmailPromptWhenShown(page);
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles(await threeImages(5));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: /Choose a template/ })).toBeVisible();
  // Each template card carries its demo's card picture.
  await expect(page.locator('.template-card picture img')).toHaveCount(8);

  const style = page.getByRole('group', { name: 'Visual style' });
  const mode = page.getByRole('group', { name: 'Light or dark' });
  const layout = page.getByRole('group', { name: 'Hero layout' });
  // Universal's look is its demo's: nature, following the visitor.
  await expect(style.getByRole('radio', { name: 'Nature' })).toBeChecked();
  await expect(mode.getByRole('radio', { name: 'Automatic' })).toBeChecked();
  // Client Delivery brings its dark minimal look.
  await page.getByRole('radio', { name: /Client Delivery/ }).check();
  await expect(style.getByRole('radio', { name: 'Minimal' })).toBeChecked();
  await expect(mode.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await shoot(page, 'wizard-template-1280-light');

  // The creator's own choice, with the keyboard: Elegant, light, featured.
  await style.getByRole('radio', { name: 'Minimal' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(style.getByRole('radio', { name: 'Elegant' })).toBeChecked();
  await mode.getByRole('radio', { name: 'Light' }).check();
  await layout.getByRole('radio', { name: 'Featured' }).check();
  await expect(page.getByRole('checkbox', { name: 'Let visitors switch light/dark' })).not.toBeChecked();

  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel(/^Description/).fill('Final files for review.');
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await page.getByRole('button', { name: 'Preview Site' }).click();
  const frame = page.frameLocator('[data-testid="preview-frame"]');
  await expect(frame.locator('html')).toHaveAttribute('data-theme', 'elegant-light', { timeout: 15_000 });
  await expect(frame.locator('html')).toHaveAttribute('data-hero-layout', 'featured');
  await expect(frame.locator('body')).toHaveCSS('background-color', rgb(BACKGROUNDS['elegant-light']));
  await expect(frame.getByText('Featured Presentation')).toBeVisible();
  await shoot(page, 'wizard-preview-1280');
  await context.close();

  // The step at 375 px in dark mode.
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, colorScheme: 'dark' });
  const small = await phone.newPage();
  await closeEmailPromptWhenShown(small);
  await small.goto('/');
  await small.getByTestId('file-input').setInputFiles(await threeImages(6));
  await small.getByRole('button', { name: 'Continue' }).click();
  await expect(small.getByRole('group', { name: 'Visual style' })).toBeVisible();
  expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shoot(small, 'wizard-template-375-dark');
  await small.getByRole('group', { name: 'Visual style' }).scrollIntoViewIfNeeded();
  await shoot(small, 'wizard-look-375-dark');
  await phone.close();
});
