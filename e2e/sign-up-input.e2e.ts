import { expect, test } from '@playwright/test';

test('switching between sign-in and sign-up keeps what was typed, even on a slow machine', async ({ page }) => {
  // A loaded machine: the page's scripts and its answers arrive late while the creator types.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  await page.goto('/sign-in');
  const form = page.locator('.account-frame');
  await form.getByLabel('Email address').fill('ada@studio.example');
  await form.getByLabel('Password', { exact: true }).fill('a-long-password');

  await form.getByRole('button', { name: 'Create a free account' }).click();
  await expect(form.getByRole('heading', { level: 1 })).toHaveText('Create your free account');
  await expect(page).toHaveURL(/\/sign-in\?mode=sign-up$/);
  await form.getByLabel('Your name').fill('Ada Maker');
  // Everything the page does after the switch has finished: the fields still hold what was typed.
  await page.waitForLoadState('networkidle');
  await expect(form.getByLabel('Your name')).toHaveValue('Ada Maker');
  await expect(form.getByLabel('Email address')).toHaveValue('ada@studio.example');
  await expect(form.getByLabel('Password', { exact: true })).toHaveValue('a-long-password');
  await expect(form.getByRole('button', { name: 'Create Account' })).toBeEnabled();
  // Nothing opened over the form.
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(form.getByRole('heading', { level: 1 })).toHaveText('Welcome back');
  await expect(form.getByLabel('Email address')).toHaveValue('ada@studio.example');
  await expect(form.getByLabel('Password', { exact: true })).toHaveValue('a-long-password');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
});
