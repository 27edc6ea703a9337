/**
 * A product shoot chosen as a folder: each file keeps the folder it was in as its group, from the
 * wizard's list (keyboard and 375 px) to the published site's HTML and the dashboard's Files tab.
 * Hidden and system files in the folder are left out.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { closeEmailPromptWhenShown, makeJpeg } from './wizard-support.ts';
import { signUpThroughLink } from './account-support.ts';

/** Tees/ holds a size chart and one folder per colour, plus what operating systems leave behind. */
async function writeShoot(root: string): Promise<string> {
  const shoot = path.join(root, 'Tees');
  await mkdir(path.join(shoot, 'Black'), { recursive: true });
  await mkdir(path.join(shoot, 'White'), { recursive: true });
  await mkdir(path.join(shoot, '.cache'), { recursive: true });
  await writeFile(path.join(shoot, 'size-chart.jpg'), await makeJpeg(600, 400, [200, 200, 190]));
  await writeFile(path.join(shoot, 'Black', 'black-front.jpg'), await makeJpeg(800, 1000, [20, 20, 24]));
  await writeFile(path.join(shoot, 'Black', 'black-back.jpg'), await makeJpeg(800, 1000, [30, 28, 30]));
  await writeFile(path.join(shoot, 'White', 'white-front.jpg'), await makeJpeg(800, 1000, [245, 244, 240]));
  await writeFile(path.join(shoot, '.DS_Store'), 'Bud1');
  await writeFile(path.join(shoot, 'White', 'Thumbs.db'), 'thumbs');
  await writeFile(path.join(shoot, 'Black', '.hidden-proof.jpg'), await makeJpeg(10, 10, [1, 2, 3]));
  await writeFile(path.join(shoot, '.cache', 'tile.jpg'), await makeJpeg(10, 10, [4, 5, 6]));
  return shoot;
}

const EXPECTED = [
  { name: 'size-chart.jpg', group: 'Tees' },
  { name: 'black-back.jpg', group: 'Black' },
  { name: 'black-front.jpg', group: 'Black' },
  { name: 'white-front.jpg', group: 'White' },
];

/** The wizard's row of a file, and the group it shows beside it. */
const groupShownFor = (page: Page, name: string) => page.locator('.file-row').filter({ hasText: name }).getByTestId('file-group');

test('a folder chosen in the wizard keeps each file’s folder as its group, on the site and in the dashboard', async ({ page, context, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const shoot = await writeShoot(testInfo.outputPath('shoot'));
  await closeEmailPromptWhenShown(page);

  // Signed in, so the site is the creator's and its Files tab can be read afterwards.
  await signUpThroughLink(context.request, baseURL!, { email: `tees-${Date.now()}@studio.example`, password: 'correct horse battery', name: 'Tess Lind' });

  // 375 px wide: 'Choose Folder' is reached and pressed by keyboard, without the page scrolling sideways.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/');
  const chooseFolder = page.getByRole('button', { name: 'Choose Folder' });
  await expect(chooseFolder).toBeVisible();
  await page.getByTestId('dropzone').focus();
  await page.keyboard.press('Tab');
  await expect(chooseFolder).toBeFocused();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(shoot);

  for (const { name, group } of EXPECTED) await expect(groupShownFor(page, name)).toHaveText(`Folder ${group}`);
  await expect(page.locator('.file-row')).toHaveCount(EXPECTED.length);
  for (const hidden of ['.DS_Store', 'Thumbs.db', '.hidden-proof.jpg', 'tile.jpg']) await expect(page.locator('.file-row').filter({ hasText: hidden })).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // The Photo Gallery template files its images under category chips named after their groups.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('radio', { name: /Photo Gallery/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel(/^Site Title/).fill('Tees in two colours');
  await page.getByLabel(/^Description/).fill('Three tees in two colours, with the size chart.');
  await page.getByRole('button', { name: 'Configure Features' }).click();
  await page.getByRole('button', { name: 'Preview Site' }).click();
  await page.getByRole('button', { name: 'Publish Site' }).click();
  const url = page.getByTestId('site-url');
  await expect(url).toHaveValue(/^http:\/\/localhost:\d+\/[a-z0-9]{8,}$/, { timeout: 30_000 });
  const siteUrl = await url.inputValue();
  const slug = siteUrl.split('/').pop()!;
  await expect.poll(async () => ((await (await context.request.get(`/api/sites/${slug}/status`)).json()) as { status: string }).status, { timeout: 30_000 }).toBe('live');

  // The site's HTML carries each file's group: as data-group on what the template renders, or in its islands' props.
  const html = await (await context.request.get(siteUrl)).text();
  for (const group of ['Tees', 'Black', 'White']) {
    const asAttribute = html.includes(`data-group="${group}"`);
    const asProp = html.includes(`&quot;group&quot;:[0,&quot;${group}&quot;]`);
    expect(asAttribute || asProp, `group ${group} on the published page`).toBe(true);
  }

  // The dashboard's Files tab shows each file's folder.
  await page.goto('/dashboard');
  const card = page.locator('.dash-card').filter({ hasText: 'Tees in two colours' });
  await card.getByRole('link', { name: 'View Details' }).click();
  await page.waitForURL(/\/dashboard\/projects\/[A-Za-z0-9_-]+$/);
  await page.getByRole('tab', { name: 'Files' }).click();
  for (const { name, group } of EXPECTED) {
    await expect(page.locator('.dash-file').filter({ hasText: name }).getByTestId('file-group')).toHaveText(`Folder ${group}`);
  }
});
