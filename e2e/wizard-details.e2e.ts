import { expect, test } from '@playwright/test';
import { threeImages } from './wizard-support.ts';

test('the details step enables Configure Features with a title alone (the description is optional), and refuses a past expiry', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles((await threeImages(33)).slice(0, 1));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  const title = page.getByLabel(/^Site Title/);
  const description = page.getByLabel(/^Description/);
  const next = page.getByRole('button', { name: 'Configure Features' });
  await expect(title).toHaveValue('Golden Hour Portrait');
  await expect(page.locator('label', { hasText: /^Description/ })).toContainText('Optional');
  await expect(description).not.toHaveAttribute('required');
  await expect(description).toHaveValue('');
  await expect(next).toBeEnabled();

  await description.fill('   ');
  await description.blur();
  await expect(next).toBeEnabled();
  await expect(description).not.toHaveAttribute('aria-invalid', 'true');

  await description.fill('Portraits from Saturday');
  await expect(next).toBeEnabled();
  await title.fill(' \t ');
  await title.blur();
  await expect(next).toBeDisabled();
  await expect(page.getByText('Add a title for your site.')).toBeVisible();
  await title.fill('Saturday portraits');
  await expect(next).toBeEnabled();

  // Optional fields: the password hint and badges.
  await expect(page.getByText('Leave empty for public access')).toBeVisible();
  await expect(page.getByText('Password Protected')).toHaveCount(0);
  await page.getByLabel(/^Password Protection/).fill('harper-and-cole');
  await expect(page.getByText('Password Protected')).toBeVisible();

  const expiry = page.getByLabel(/^Expiry Date/);
  const min = await expiry.getAttribute('min');
  expect(min).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
  await expiry.fill('2020-01-01T10:00');
  await expect(page.getByText('Choose a date and time in the future.')).toBeVisible();
  await expect(next).toBeDisabled();
  await expect(page.getByText(/^Expires:/)).toHaveCount(0);
  await expiry.fill('2031-06-01T18:00');
  await expect(page.getByText(/^Expires: .*2031/)).toBeVisible();
  await expect(next).toBeEnabled();

  await next.click();
  await expect(page.getByRole('heading', { name: 'Client Engagement Features' })).toBeVisible();
  for (const [name, plan] of [
    ['Favorites', 'Free'],
    ['Comments', 'Pro'],
    ['Approvals', 'Pro'],
    ['Analytics', 'Free'],
    ['Notifications', 'Pro'],
  ] as const) {
    await expect(page.locator('.feature-row', { hasText: name })).toContainText(plan);
  }
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel(/^Site Title/)).toHaveValue('Saturday portraits');
});
