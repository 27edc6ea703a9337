import { expect, test } from '@playwright/test';

test('repro', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email address').fill('ada@studio.example');
  await dialog.getByLabel('Password', { exact: true }).fill('secret-password');
  await dialog.getByRole('button', { name: 'Create a free account' }).click();
  await dialog.getByLabel('Your name').fill('Ada');
  for (let i = 0; i < 20; i++) {
    console.log(i, await dialog.getByLabel('Your name').inputValue().catch(() => 'x'), await dialog.getByLabel('Email address').inputValue().catch(() => 'x'), await dialog.getByLabel('Password', { exact: true }).inputValue().catch(() => 'x'), await page.evaluate(() => document.querySelectorAll('dialog[open]').length));
    await page.waitForTimeout(300);
  }
});
