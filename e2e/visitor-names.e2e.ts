/**
 * Visitors are named: the first favourite, review or comment asks for a name once (and an optional
 * address only the creator sees), then completes by itself; the device remembers the name, the
 * visitor can change it, and comments show it. The controls are the same labelled buttons for an
 * image, a PDF and a video on one page. Screenshots go to /tmp/shots/names/.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ALL_ENGAGEMENT } from './engagement-helpers.ts';
import { hydrateAll, pdf, photos, publish, video } from './visitor-support.ts';

const SHOTS = '/tmp/shots/names';

function controlsFor(page: Page, fileName: string): Locator {
  return page.getByRole('group', { name: `Feedback on ${fileName}` });
}

function namePrompt(page: Page): Locator {
  return page.getByRole('dialog', { name: /What’s your name\?|Change your name/ });
}

/** The page as it is at 1280 px light and 375 px dark (the site's own dark theme), `target` in the middle. */
async function shoot(page: Page, name: string, target?: Locator, fullPage = false): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const theme = await page.evaluate(() => document.documentElement.dataset.theme ?? '');
  for (const [width, height, mode] of [
    [1280, 900, 'light'],
    [375, 812, 'dark'],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(
      (next) => {
        document.documentElement.dataset.theme = next;
      },
      theme.replace(/-(light|dark)$/, `-${mode}`),
    );
    if (target) await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: `${SHOTS}/${name}-${width}-${mode}.png`, fullPage });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate((next) => {
    document.documentElement.dataset.theme = next;
  }, theme);
}

test.describe('named visitors on a site with an image, a PDF and a video', () => {
  let slug = '';
  const [image] = ['frame-01.jpg'];

  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    slug = await publish(request, [...(await photos(1)), pdf('brief.pdf', 2), await video('teaser.mp4', 2)], { settings: JSON.stringify(ALL_ENGAGEMENT) });
  });

  test('the same labelled controls for every file type', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(`/${slug}`);
    await hydrateAll(page);
    const groups = [controlsFor(page, image!), controlsFor(page, 'brief.pdf'), controlsFor(page, 'teaser.mp4')];
    await shoot(page, 'site', undefined, true);
    const looks: string[] = [];
    for (const group of groups) {
      await expect(group.getByRole('button')).toHaveText(['Favourite', 'Approve', 'Request changes', /^Comments \(0\)$/], { useInnerText: true });
      await expect(group.getByRole('button', { name: 'Request changes' })).toBeVisible();
      looks.push(
        JSON.stringify(
          await group.getByRole('button').evaluateAll((buttons) =>
            buttons.map((b) => {
              const s = getComputedStyle(b);
              return [Math.round(b.getBoundingClientRect().height), s.borderRadius, s.fontWeight, s.fontSize, b.querySelectorAll('svg').length > 0];
            }),
          ),
        ),
      );
    }
    expect(new Set(looks).size).toBe(1);
    await shoot(page, 'controls-pdf', groups[1]);

    // At 375 px every button still shows its words.
    await page.setViewportSize({ width: 375, height: 812 });
    for (const group of groups) {
      await expect(group.getByRole('button')).toHaveText(['Favourite', 'Approve', 'Request changes', /^Comments \(0\)$/], { useInnerText: true });
      for (const button of await group.getByRole('button').all()) expect((await button.boundingBox())!.width).toBeLessThanOrEqual(343);
    }
  });

  test('asked once for a name, the favourite lands; a reload does not ask again; comments carry the name', async ({ page }) => {
    test.setTimeout(150_000);
    await page.goto(`/${slug}`);
    await hydrateAll(page);
    const pdfControls = controlsFor(page, 'brief.pdf');
    const favourite = pdfControls.getByRole('button', { name: 'Favourite' });
    await favourite.click();

    const prompt = namePrompt(page);
    await expect(prompt).toBeVisible();
    await expect(prompt.getByRole('heading', { name: 'What’s your name?' })).toBeVisible();
    const nameBox = prompt.getByRole('textbox', { name: 'Your name' });
    await expect(nameBox).toBeFocused();
    await expect(prompt.getByText('Only the site’s creator sees it, so they can get back to you.')).toBeVisible();
    await shoot(page, 'name-prompt');

    // A blank name is refused in the dialog, nothing sent.
    await prompt.getByRole('button', { name: 'Continue' }).click();
    await expect(prompt.getByRole('alert')).toHaveText('Please enter your name.');
    await expect(nameBox).toHaveAttribute('aria-invalid', 'true');
    await nameBox.fill('Nora Quist');
    await prompt.getByRole('textbox', { name: 'Email (optional)' }).fill('nora@example.com');
    await page.keyboard.press('Enter');
    await expect(prompt).toBeHidden();
    // No second click: the favourite went through.
    await expect(favourite).toHaveAttribute('aria-pressed', 'true');
    await expect(favourite).toHaveText('Favourited');

    await page.reload({ waitUntil: 'domcontentloaded' });
    await hydrateAll(page);
    const video = controlsFor(page, 'teaser.mp4');
    await video.getByRole('button', { name: 'Approve' }).click();
    await expect(video.getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-pressed', 'true');
    await expect(namePrompt(page)).toHaveCount(0);
    await expect(controlsFor(page, 'brief.pdf').getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'true');

    const imageControls = controlsFor(page, image!);
    await imageControls.getByRole('button', { name: /^Comments/ }).click();
    await expect(imageControls.getByText('Commenting as')).toContainText('Commenting as Nora Quist');
    await imageControls.getByRole('textbox', { name: 'Add a comment' }).fill('The second page reads well.');
    await imageControls.getByRole('button', { name: 'Post' }).click();
    await expect(imageControls.locator('.engagement-comment__author')).toHaveText(['Nora Quist']);
    await shoot(page, 'comment-named', imageControls);

    // The name can be changed; the dialog opens filled in, and Cancel keeps the old one.
    await imageControls.getByRole('button', { name: 'Change your name (Nora Quist)' }).click();
    const change = namePrompt(page);
    await expect(change.getByRole('heading', { name: 'Change your name' })).toBeVisible();
    await expect(change.getByRole('textbox', { name: 'Your name' })).toHaveValue('Nora Quist');
    await expect(change.getByRole('textbox', { name: 'Email (optional)' })).toHaveValue('nora@example.com');
    await change.getByRole('textbox', { name: 'Your name' }).fill('Nora Q.');
    await change.getByRole('button', { name: 'Save' }).click();
    await expect(change).toBeHidden();
    await expect(imageControls.getByText('Commenting as')).toContainText('Commenting as Nora Q.');
  });

  test('a first comment waits for the name and is posted with it, nothing typed lost; Escape asks nothing more', async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto(`/${slug}`);
    await hydrateAll(page);
    const controls = controlsFor(page, 'teaser.mp4');

    // Escape leaves the prompt and the favourite is not made.
    await controls.getByRole('button', { name: 'Favourite' }).click();
    await expect(namePrompt(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(namePrompt(page)).toBeHidden();
    await expect(controls.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'false');
    await expect(controls.getByRole('button', { name: 'Favourite' })).toBeFocused();

    await controls.getByRole('button', { name: /^Comments/ }).click();
    const box = controls.getByRole('textbox', { name: 'Add a comment' });
    await box.fill('Can the intro be shorter?');
    await controls.getByRole('button', { name: 'Post' }).click();
    const prompt = namePrompt(page);
    await expect(prompt).toBeVisible();
    await prompt.getByRole('textbox', { name: 'Your name' }).fill('Olu Bakare');
    await prompt.getByRole('button', { name: 'Continue' }).click();
    await expect(prompt).toBeHidden();
    await expect(controls.locator('.engagement-comment__text')).toHaveText(['Can the intro be shorter?']);
    await expect(controls.locator('.engagement-comment__author')).toHaveText(['Olu Bakare']);
    await expect(box).toHaveValue('');
    await context.close();
  });
});
