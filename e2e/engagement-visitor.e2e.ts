import { expect, test, type Locator, type Page } from '@playwright/test';
import { giveName, nameVisitor, publishSite } from './engagement-helpers.ts';
import { moveThePointer } from './visitor-support.ts';

/** The engagement controls of the file in view ('full' variant beside a single image). */
function controlsOf(page: Page): Locator {
  return page.locator('[data-engagement]').first();
}

/**
 * Opens the site as a visitor does: the controls come with the viewer, which hydrates on the visitor's
 * first input, here the pointer moving over the page.
 */
async function visit(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await moveThePointer(page);
}

test.describe('a visitor engages with a published site', () => {
  let siteUrl = '';

  test.beforeAll(async ({ playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL });
    const site = await publishSite(request, baseURL!, { title: 'Autumn Wedding', images: [{ name: 'first-dance.jpg', rgb: [150, 80, 120] }] });
    siteUrl = site.url;
    await request.dispose();
  });

  test('favourites, approves, comments and replies; a reload shows their own state; HTML in a comment is text', async ({ page }) => {
    test.setTimeout(120_000);
    let alerted = false;
    page.on('dialog', async (dialog) => {
      alerted = true;
      await dialog.dismiss();
    });
    await visit(page, siteUrl);
    const controls = controlsOf(page);
    await expect(controls).toBeVisible();

    const favourite = controls.getByRole('button', { name: 'Favourite' });
    await expect(favourite).toHaveAttribute('aria-pressed', 'false');
    await favourite.click();
    // The first favourite asks for a name once, then goes through by itself.
    await giveName(page, 'Ada Palmer');
    await expect(favourite).toHaveAttribute('aria-pressed', 'true');
    await expect(favourite).toHaveText('Favourited');

    await controls.getByRole('button', { name: 'Request changes' }).click();
    await expect(controls.getByRole('button', { name: 'Request changes' })).toHaveAttribute('aria-pressed', 'true');
    await expect(controls.getByRole('button', { name: 'Request changes' })).toHaveAttribute('title', 'Changes Requested (select to undo)');
    await controls.getByRole('button', { name: 'Approve' }).click();
    await expect(controls.getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-pressed', 'true');
    await expect(controls.getByRole('button', { name: 'Request changes' })).toHaveAttribute('aria-pressed', 'false');

    const toggle = controls.getByRole('button', { name: /^Comments/ });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(controls.getByText('No comments yet. Be the first to share your thoughts.')).toBeVisible();

    // One text box; its name follows what it is for ('Add a comment', 'Reply to …').
    const box = controls.getByRole('textbox');
    await expect(box).toHaveAccessibleName('Add a comment');
    const post = controls.getByRole('button', { name: 'Post' });
    await expect(post).toBeDisabled();
    await box.fill('   ');
    await expect(post).toBeDisabled();

    const markup = '<img src=x onerror="alert(1)"><b>bold?</b> 👩‍👩‍👧 שלום';
    await box.fill(markup);
    await post.click();
    const list = controls.getByRole('region', { name: 'Comment list' });
    await expect(list.locator('.engagement-comment__text').first()).toHaveText(markup);
    await expect(box).toHaveValue('');
    await expect(list.locator('img, b')).toHaveCount(0);
    await expect(list.getByText('Ada Palmer', { exact: true }).first()).toBeVisible();
    await expect(list.getByText('You', { exact: true }).first()).toBeVisible();

    await list.getByRole('button', { name: 'Reply to Ada Palmer' }).first().click();
    await expect(controls.getByText(/Replying to/)).toBeVisible();
    await expect(box).toHaveAccessibleName('Reply to Ada Palmer');
    await expect(box).toBeFocused();
    await box.fill('Also: could the last frame be a touch warmer?');
    await controls.getByRole('button', { name: 'Reply', exact: true }).click();
    const replies = list.locator('.engagement-replies');
    await expect(replies.locator('.engagement-comment__text')).toHaveText(['Also: could the last frame be a touch warmer?']);
    await expect(toggle).toHaveText(/Comments \(2\)/);

    await page.reload();
    await moveThePointer(page);
    const again = controlsOf(page);
    await expect(again.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'true');
    await expect(again.getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-pressed', 'true');
    await expect(again.getByRole('button', { name: /^Comments/ })).toHaveText(/Comments \(2\)/);
    await again.getByRole('button', { name: /^Comments/ }).click();
    await expect(again.locator('.engagement-comment__text')).toHaveText([markup, 'Also: could the last frame be a touch warmer?']);

    // Any status to any other, and back off: the pressed review, pressed again, is taken back.
    await again.getByRole('button', { name: 'Approve' }).click();
    await expect(again.getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-pressed', 'false');
    await expect(again.getByRole('button', { name: 'Request changes' })).toHaveAttribute('aria-pressed', 'false');
    await again.getByRole('button', { name: 'Favourite' }).click();
    await expect(again.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'false');
    expect(alerted).toBe(false);
  });

  test('a comment whose post fails stays in the box marked not sent, and Retry sends it', async ({ page, baseURL }) => {
    await nameVisitor(page, baseURL!, 'Ada Palmer');
    await visit(page, siteUrl);
    const controls = controlsOf(page);
    await controls.getByRole('button', { name: /^Comments/ }).click();
    const list = controls.getByRole('region', { name: 'Comment list' });
    await expect(list).toBeVisible();

    let failPosts = true;
    await page.route('**/api/comments', async (route) => {
      if (route.request().method() === 'POST' && failPosts) {
        await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, error: 'Internal error', code: 'internal' }) });
        return;
      }
      await route.continue();
    });

    const text = 'Please send the full-resolution files too.';
    const box = controls.getByRole('textbox', { name: 'Add a comment' });
    await box.fill(text);
    await controls.getByRole('button', { name: 'Post' }).click();
    await expect(controls.getByText('Not sent.')).toBeVisible();
    await expect(box).toHaveValue(text);
    await expect(list.getByText(text)).toHaveCount(0);

    // Closing and opening the panel keeps it, still marked.
    const toggle = controls.getByRole('button', { name: /^Comments/ });
    await toggle.click();
    await expect(box).toHaveCount(0);
    await toggle.click();
    await expect(box).toHaveValue(text);
    await expect(controls.getByText('Not sent.')).toBeVisible();

    failPosts = false;
    await controls.getByRole('button', { name: 'Retry' }).click();
    await expect(list.locator('.engagement-comment__text').filter({ hasText: text })).toBeVisible();
    await expect(box).toHaveValue('');
    await expect(controls.getByText('Not sent.')).toHaveCount(0);
  });

  test('closing the panel while a comment is on its way loses nothing', async ({ page, baseURL }) => {
    await nameVisitor(page, baseURL!, 'Ada Palmer');
    await visit(page, siteUrl);
    const controls = controlsOf(page);
    const toggle = controls.getByRole('button', { name: /^Comments/ });
    await toggle.click();
    await expect(controls.getByRole('region', { name: 'Comment list' })).toBeVisible();
    const before = Number((await toggle.textContent())?.match(/\((\d+)\)/)?.[1] ?? 0);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/comments', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    const text = 'Sent while the panel was closed.';
    await controls.getByRole('textbox').fill(text);
    await controls.getByRole('button', { name: 'Post' }).click();
    await expect(controls.getByRole('button', { name: 'Sending…' })).toBeDisabled();
    await toggle.click();
    release();
    await expect(toggle).toHaveText(new RegExp(`Comments \\(${before + 1}\\)`));
    await toggle.click();
    await expect(controls.locator('.engagement-comment__text').filter({ hasText: text })).toBeVisible();
    await expect(controls.getByRole('textbox')).toHaveValue('');
  });

  test('a failed comment load shows an error with Retry, never sample comments', async ({ page }) => {
    await visit(page, siteUrl);
    const controls = controlsOf(page);
    let failLoads = true;
    await page.route('**/api/comments?*', async (route) => {
      if (failLoads) {
        await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, error: 'Unavailable', code: 'service_unavailable' }) });
        return;
      }
      await route.continue();
    });
    await controls.getByRole('button', { name: /^Comments/ }).click();
    const error = controls.getByRole('alert').filter({ hasText: 'Couldn’t load the comments.' });
    await expect(error).toBeVisible();
    await expect(controls.locator('.engagement-comment')).toHaveCount(0);

    failLoads = false;
    await error.getByRole('button', { name: 'Retry' }).click();
    await expect(error).toHaveCount(0);
    await expect(controls.getByRole('region', { name: 'Comment list' })).toBeVisible();
  });

  test('a favourite the server refuses does not flip, and says so', async ({ page, baseURL }) => {
    await nameVisitor(page, baseURL!, 'Ada Palmer');
    await visit(page, siteUrl);
    const controls = controlsOf(page);
    await page.route('**/api/favorites', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"error":"x","code":"internal"}' }));
    const favourite = controls.getByRole('button', { name: 'Favourite' });
    const before = await favourite.getAttribute('aria-pressed');
    await favourite.click();
    await expect(controls.getByRole('alert').filter({ hasText: /favourites/ })).toBeVisible();
    await expect(favourite).toHaveAttribute('aria-pressed', before!);
  });

  test('works with the keyboard alone, the name prompt included', async ({ page }) => {
    await page.goto(siteUrl);
    // The first key is the visitor's first input: the viewer hydrates and its controls come.
    await page.keyboard.press('Tab');
    const controls = controlsOf(page);
    const favourite = controls.getByRole('button', { name: 'Favourite' });
    await expect(favourite).toBeVisible({ timeout: 15_000 });
    const wasPressed = (await favourite.getAttribute('aria-pressed')) === 'true';
    await favourite.focus();
    await page.keyboard.press('Space');
    // A new visitor: the prompt opens on the name field; Enter saves it and the favourite goes through.
    await expect(page.getByRole('textbox', { name: 'Your name' })).toBeFocused();
    await page.keyboard.type('Kai Brandt');
    await page.keyboard.press('Enter');
    await expect(favourite).toHaveAttribute('aria-pressed', String(!wasPressed));
    await expect(favourite).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(controls.getByRole('button', { name: 'Approve' })).toBeFocused();

    const toggle = controls.getByRole('button', { name: /^Comments/ });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const box = controls.getByRole('textbox', { name: 'Add a comment' });
    await box.focus();
    await page.keyboard.type('Sent with Ctrl+Enter');
    await page.keyboard.press('Control+Enter');
    await expect(controls.getByRole('region', { name: 'Comment list' }).getByText('Sent with Ctrl+Enter')).toBeVisible();
  });
});

test('in the gallery lightbox the compact controls share the page state and fit a phone', async ({ page, playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  const site = await publishSite(request, baseURL!, {
    title: 'Brand Refresh',
    images: [
      { name: 'logo-a.jpg', rgb: [40, 90, 160] },
      { name: 'logo-b.jpg', rgb: [200, 120, 40] },
      { name: 'logo-c.jpg', rgb: [30, 140, 90] },
    ],
  });
  await request.dispose();

  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(site.url);
  await page.locator('a.gv-tile').first().click();
  const dialog = page.getByRole('dialog');
  const controls = dialog.locator('[data-engagement]');
  await expect(controls).toBeVisible();
  const favourite = controls.getByRole('button', { name: 'Favourite' });
  // One heart: with favourites on, the lightbox has no local Like beside the favourite.
  await expect(dialog.getByRole('button', { name: /^Like / })).toHaveCount(0);
  await favourite.click();
  // The name prompt opens over the lightbox; the lightbox stays open under it.
  await giveName(page, 'Ada Palmer');
  await expect(favourite).toHaveAttribute('aria-pressed', 'true');
  await controls.getByRole('button', { name: 'Approve' }).click();
  await expect(controls.getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-pressed', 'true');

  await controls.getByRole('button', { name: /^Comments/ }).click();
  const panel = controls.getByRole('region', { name: /^Comments on logo-a\.jpg/ });
  await expect(panel).toBeVisible();
  const box = await panel.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  expect(box!.y + box!.height).toBeLessThanOrEqual(812);
  await panel.getByRole('textbox').fill('This one.');
  await panel.getByRole('button', { name: 'Post' }).click();
  await expect(panel.locator('.engagement-comment__text')).toHaveText(['This one.']);
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await expect(controls.getByRole('button', { name: /^Comments \(1\)/ })).toBeVisible();

  // Another image has its own state; coming back shows this one's again, from the page's one store.
  await page.keyboard.press('ArrowRight');
  await expect(dialog.getByText('logo-b.jpg').first()).toBeVisible();
  await expect(controls.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('ArrowLeft');
  await expect(controls.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'true');
  await expect(controls.getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-pressed', 'true');
});

test('a page view is counted with one beacon, only when the creator turned analytics on', async ({ page, playwright, baseURL }) => {
  // The creator's own request context: it holds the anonymous token, so it may read the counts.
  const creator = await playwright.request.newContext({ baseURL });
  const counted = await publishSite(creator, baseURL!, { title: 'Counted', images: [{ name: 'a.jpg', rgb: [10, 20, 30] }] });
  const quiet = await publishSite(creator, baseURL!, {
    title: 'Not counted',
    images: [{ name: 'b.jpg', rgb: [30, 20, 10] }],
    settings: { enableFavorites: true, enableAnalytics: false },
  });

  const beacons: string[] = [];
  page.on('request', (req) => {
    if (req.url().endsWith('/api/analytics/view')) beacons.push(req.method());
  });
  const beacon = page.waitForResponse((res) => res.url().endsWith('/api/analytics/view'));
  await page.goto(counted.url);
  expect((await beacon).status()).toBe(200);

  await visit(page, quiet.url);
  await expect(page.locator('[data-engagement]').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(beacons).toEqual(['POST']);

  const { sessionId } = (await (await creator.get('/api/creators/anonymous/session')).json()) as { sessionId: string };
  const { projects } = (await (await creator.get(`/api/projects/anonymous/${sessionId}`)).json()) as { projects: { slug: string; views_count: number }[] };
  expect(projects.find((p) => p.slug === counted.slug)?.views_count).toBe(1);
  expect(projects.find((p) => p.slug === quiet.slug)?.views_count).toBe(0);
  await creator.dispose();
});
