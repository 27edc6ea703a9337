/**
 * A site password shorter than 8 characters is refused in the wizard's details step, with the
 * rule shown before anything is sent, and by the server on the publish call itself.
 */
import { expect, test } from '@playwright/test';
import { threeImages } from './wizard-support.ts';

test('the details step shows the 8-character rule for a short password and keeps Configure Features disabled', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('file-input').setInputFiles((await threeImages(41)).slice(0, 1));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.getByLabel(/^Description/).fill('Portraits from Saturday');
  const next = page.getByRole('button', { name: 'Configure Features' });
  await expect(next).toBeEnabled();

  const password = page.getByLabel(/^Password Protection/);
  await password.fill('harper');
  await password.blur();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(next).toBeDisabled();

  await password.fill('harper-and-cole');
  await expect(page.getByText('Password must be at least 8 characters')).toHaveCount(0);
  await expect(page.getByText('Leave empty for public access')).toBeVisible();
  await expect(next).toBeEnabled();

  // Emptied again: a public site.
  await password.fill('');
  await expect(next).toBeEnabled();
});

test('the publish call itself refuses a short password', async ({ request, baseURL }) => {
  const form = new FormData();
  form.append('title', 'Short password');
  form.append('description', 'Refused');
  form.append('password', 'x');
  form.append('files', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'a.txt');
  const res = await request.post('/api/upload', { multipart: form, headers: { Origin: baseURL! } });
  expect(res.status()).toBe(400);
  expect(await res.json()).toMatchObject({ success: false, code: 'validation_failed', error: expect.stringContaining('Password must be at least 8 characters') });
});
