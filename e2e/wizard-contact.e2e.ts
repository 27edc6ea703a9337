import { expect, test } from '@playwright/test';
import { closeEmailPromptWhenShown, threeImages } from './wizard-support.ts';

test("contact details typed in the wizard become the site footer's buttons, and the notification address stays private", async ({ page, context, request }) => {
  test.setTimeout(120_000);
  await closeEmailPromptWhenShown(page);
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles((await threeImages(44)).slice(0, 2));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel(/^Description/).fill('Portraits from Saturday');
  await page.getByLabel(/^Author Name/).fill('Mira Solberg');

  // Each field has its own label; a wrong value says what is expected and holds the step.
  const next = page.getByRole('button', { name: 'Configure Features' });
  const twitter = page.getByLabel('Twitter', { exact: true });
  await twitter.fill('https://evil.example/mira');
  await twitter.blur();
  await expect(page.getByText('Enter a Twitter handle like @name, or an https://x.com/ link.')).toBeVisible();
  await expect(twitter).toHaveAttribute('aria-invalid', 'true');
  await expect(next).toBeDisabled();
  await twitter.fill('@mira');
  await expect(twitter).not.toHaveAttribute('aria-invalid', 'true');
  await expect(next).toBeEnabled();
  await page.getByLabel('Contact Email', { exact: true }).fill('hello@mira.example');
  await page.getByLabel('Website', { exact: true }).fill('mira.example');
  await page.getByLabel('GitHub', { exact: true }).fill('mira');
  const instagram = page.getByLabel('Instagram', { exact: true });
  await instagram.fill('javascript:alert(1)');
  await instagram.blur();
  await expect(page.getByText('Enter an Instagram handle like @name, or an https://instagram.com/ link.')).toBeVisible();
  await expect(next).toBeDisabled();
  await instagram.fill('@mira.photos');
  await expect(next).toBeEnabled();

  // Notifications go to another address, which visitors must never see.
  // Without an account, the switch waits for someone to receive them: it turns on once an address is typed.
  await next.click();
  const notifications = page.getByRole('switch', { name: /Notifications/ });
  await expect(notifications).toBeDisabled();
  await page.getByLabel('Notification email').fill('private-inbox@mira.example');
  await notifications.click();
  await expect(notifications).toHaveAttribute('aria-checked', 'true');

  await page.getByRole('button', { name: 'Preview Site' }).click();
  const frame = page.frameLocator('[data-testid="preview-frame"]');
  await expect(frame.getByRole('link', { name: 'Get in touch' })).toHaveAttribute('href', 'mailto:hello@mira.example', { timeout: 15_000 });
  await expect(frame.locator('footer')).not.toContainText('private-inbox');

  await page.getByRole('button', { name: 'Publish Site' }).click();
  const url = page.getByTestId('site-url');
  await expect(url).toHaveValue(/\/[a-z0-9]{8,}$/, { timeout: 30_000 });
  const siteUrl = await url.inputValue();

  const site = await context.newPage();
  await site.goto(siteUrl);
  await expect(site.getByRole('heading', { name: 'Connect with Mira Solberg' })).toBeVisible({ timeout: 30_000 });
  const footer = site.locator('footer');
  await expect(footer.getByRole('link', { name: 'Get in touch' })).toHaveAttribute('href', 'mailto:hello@mira.example');
  // One icon button per link given (no LinkedIn), each opening in a new tab.
  const icons = footer.locator('.connect__links a');
  await expect(icons).toHaveCount(4);
  expect(await icons.evaluateAll((links) => links.map((a) => [a.getAttribute('aria-label'), a.getAttribute('href'), a.getAttribute('target')]))).toEqual([
    ['Website (opens in a new tab)', 'https://mira.example/', '_blank'],
    ['Instagram (opens in a new tab)', 'https://instagram.com/mira.photos', '_blank'],
    ['Twitter (opens in a new tab)', 'https://x.com/mira', '_blank'],
    ['GitHub (opens in a new tab)', 'https://github.com/mira', '_blank'],
  ]);
  // Keyboard: the buttons are reachable in order.
  await footer.getByRole('link', { name: 'Get in touch' }).focus();
  await site.keyboard.press('Tab');
  await site.keyboard.press('Tab');
  await expect(footer.getByRole('link', { name: 'Website (opens in a new tab)' })).toBeFocused();

  const source = await (await request.get(siteUrl)).text();
  expect(source).not.toContain('private-inbox@mira.example');
  expect(source).not.toContain('notificationEmail');
});
