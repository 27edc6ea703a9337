/**
 * The wizard's defaults for a photographer: a shoot folder names the site, a camera's file name
 * does not, a file added twice is flagged with a one-click remove, the Photo Gallery starts with
 * favourites on, the pitch beside the wizard stays still from step to step, and the plan tags are
 * readable. Screenshots (1280 px light, 375 px dark) go to /tmp/shots/wizard/.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { makeJpeg, threeImages } from './wizard-support.ts';

const SHOTS = '/tmp/shots/wizard';

const shoot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });

/** From the upload step with files chosen to the details step. */
async function toDetails(page: Page) {
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: /Choose a template/ })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: /Site details/ })).toBeVisible();
}

test('a shoot folder names the site after the folder; a loose camera file leaves the title for the creator', async ({ page }, testInfo) => {
  const folder = path.join(testInfo.outputPath('cards'), 'harper-cole_wedding');
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'DSC_0142.jpg'), await makeJpeg(600, 400, [200, 170, 140]));
  await writeFile(path.join(folder, 'DSC_0143.jpg'), await makeJpeg(600, 400, [190, 160, 150]));

  await page.goto('/');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose Folder' }).click();
  await (await chooser).setFiles(folder);
  await expect(page.locator('.file-row')).toHaveCount(2);
  await toDetails(page);
  await expect(page.getByLabel(/^Site Title/)).toHaveValue('Harper Cole Wedding');

  // A fresh start with a camera's file alone: no 'DSC 0142' title, the creator names the site.
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles({ name: 'DSC_0142.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(600, 400, [10, 20, 30]) });
  await toDetails(page);
  await expect(page.getByLabel(/^Site Title/)).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Configure Features' })).toBeDisabled();
  await page.getByLabel(/^Site Title/).fill('Harper & Cole');
  // The description is optional: a title is enough to go on.
  await expect(page.getByRole('button', { name: 'Configure Features' })).toBeEnabled();
});

test('a file added twice is flagged in the list, and one click removes the copy', async ({ page }) => {
  await mkdir(SHOTS, { recursive: true });
  const images = await threeImages(71);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles(images.slice(0, 2));
  await expect(page.locator('.file-row')).toHaveCount(2);
  await expect(page.getByTestId('duplicate-flag')).toHaveCount(0);
  await expect(page.getByTestId('duplicates-alert')).toHaveCount(0);

  // The same photo again, from another pick.
  await page.getByTestId('file-input').setInputFiles([images[0]!]);
  await expect(page.locator('.file-row')).toHaveCount(3);
  const copyRow = page.locator('.file-row[data-duplicate]');
  await expect(copyRow).toHaveCount(1);
  await expect(copyRow.getByTestId('duplicate-flag')).toContainText('Added twice: same name and size as a file above.');
  await expect(page.getByTestId('duplicates-alert')).toContainText('One file was added twice.');
  await expect(page.getByRole('alert')).toContainText('One file was added twice.');
  await copyRow.scrollIntoViewIfNeeded();
  await shoot(page, 'duplicate-1280-light');

  // Keyboard: the copy's own button removes it.
  const removeCopy = copyRow.getByRole('button', { name: `Remove copy of ${images[0]!.name}` });
  await removeCopy.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.file-row')).toHaveCount(2);
  await expect(page.getByTestId('duplicate-flag')).toHaveCount(0);
  await expect(page.getByTestId('duplicates-alert')).toHaveCount(0);
  await expect(page.locator('.file-row').first()).toContainText('golden-hour_portrait');

  // Two copies at once: one button in the alert removes both, the first of each stays.
  await page.getByTestId('file-input').setInputFiles(images.slice(0, 2));
  await expect(page.locator('.file-row[data-duplicate]')).toHaveCount(2);
  await expect(page.getByTestId('duplicates-alert')).toContainText('2 files were added twice.');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.locator('.file-row[data-duplicate]').last().scrollIntoViewIfNeeded();
  await shoot(page, 'duplicate-375-dark');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.getByRole('button', { name: 'Remove the copies' }).click();
  await expect(page.locator('.file-row')).toHaveCount(2);
  await expect(page.locator('.file-row[data-duplicate]')).toHaveCount(0);
});

test('the Photo Gallery starts with favourites on; they follow the template until the creator sets the switch', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles((await threeImages(72)).slice(0, 1));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('radio', { name: /Photo Gallery/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Configure Features' }).click();
  const favourites = page.getByRole('switch', { name: /Favorites/ });
  await expect(favourites).toHaveAttribute('aria-checked', 'true');

  // Back to Universal: favourites go back off with it.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('radio', { name: /Universal/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await expect(favourites).toHaveAttribute('aria-checked', 'false');

  // The creator turns them on themselves: a change of template leaves their choice alone.
  await favourites.click();
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('radio', { name: /Pitch/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await expect(favourites).toHaveAttribute('aria-checked', 'true');
});

test('the plan tags on the engagement step meet AA contrast in light and dark', async ({ page }) => {
  // axe reads the whole page twice.
  test.setTimeout(120_000);
  await mkdir(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles((await threeImages(73)).slice(0, 1));
  await toDetails(page);
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await expect(page.getByRole('heading', { name: 'Client Engagement Features' })).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).include('.feature-list').withRules(['color-contrast']).analyze();
    expect(results.violations, scheme).toEqual([]);
    // Measured directly too: the tag's text against its own background.
    const ratios = await page.locator('.tag--pro').evaluateAll((tags) =>
      tags.map((tag) => {
        const style = getComputedStyle(tag);
        const luminance = (colour: string) => {
          const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
            const c = Number(v) / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          }) as [number, number, number];
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x) as [number, number];
        return (light + 0.05) / (dark + 0.05);
      }),
    );
    expect(ratios.length).toBeGreaterThan(0);
    for (const ratio of ratios) expect(ratio, scheme).toBeGreaterThanOrEqual(4.5);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.locator('.feature-list').scrollIntoViewIfNeeded();
  await shoot(page, 'settings-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.locator('.feature-list').scrollIntoViewIfNeeded();
  await shoot(page, 'settings-375-dark');
});

test('the pitch beside the wizard does not move from step to step', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  // Boxes in page coordinates: moving focus to each step's heading may scroll the window, which is not a jump.
  const boxes = () =>
    page.evaluate(() =>
      ['.hero__copy', '#upload'].map((selector) => {
        const box = document.querySelector(selector)!.getBoundingClientRect();
        return { selector, x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: selector === '#upload' ? null : box.height };
      }),
    );
  const first = await boxes();
  expect(first[0]!.height).toBeGreaterThan(100);

  await page.getByTestId('file-input').setInputFiles(await threeImages(74));
  await expect(page.locator('.file-row')).toHaveCount(3);
  expect(await boxes()).toEqual(first);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: /Choose a template/ })).toBeVisible();
  expect(await boxes()).toEqual(first);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: /Site details/ })).toBeVisible();
  expect(await boxes()).toEqual(first);
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await expect(page.getByRole('heading', { name: 'Client Engagement Features' })).toBeVisible();
  expect(await boxes()).toEqual(first);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: /Site details/ })).toBeVisible();
  expect(await boxes()).toEqual(first);
});
