/**
 * Creator accounts in a real Chromium: sign up from the header (finished by the mailed link), sign
 * out, sign in (the wrong password gets the one uniform error), the emailed sign-in link read from
 * the server's mail outbox, and the account page. Screenshots of the header (both states), the sign-in page and the
 * account page at 1280 and 375 px, light and dark, go to /tmp/shots-auth/.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { finishAnimations } from './page-settle.ts';
import { linkFromOutbox, signUpThroughLink } from './account-support.ts';
import { publishSite } from './engagement-helpers.ts';
import { closeEmailPromptWhenShown, threeImages, walkToPreview } from './wizard-support.ts';

const SHOTS = '/tmp/shots-auth';
const PASSWORD = 'a long enough secret';
const VIEWPORTS = { wide: { width: 1280, height: 800 }, phone: { width: 375, height: 740 } } as const;

async function shoot(page: Page, name: string, options: { fullPage?: boolean; clip?: 'header' } = {}) {
  await mkdir(SHOTS, { recursive: true });
  // The dialog's entrance and the drawer at their end state before the picture.
  await finishAnimations(page);
  if (options.clip === 'header') {
    const box = await page.locator('.site-header').boundingBox();
    const open = page.locator('.site-header__drawer[data-open], .account-menu__panel:not([hidden])');
    const menu = (await open.count()) > 0 ? await open.first().boundingBox() : null;
    const height = Math.max(box?.height ?? 64, menu ? menu.y + menu.height + 16 : 0);
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), clip: { x: 0, y: 0, width: page.viewportSize()!.width, height: Math.ceil(height) } });
    return;
  }
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: options.fullPage ?? false });
}

/** Each run uses its own addresses: the e2e server's database lives for the whole suite. */
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.describe('creator accounts', () => {
  test('sign up from the header, sign out, sign in (wrong password: the uniform error), and change the name on the account page', async ({ browser }) => {
    const email = `mara-${unique()}@studio.test`;
    const context = await browser.newContext({ viewport: VIEWPORTS.wide });
    const page = await context.newPage();
    await page.goto('/');

    const header = page.locator('.site-header');
    await expect(header.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/sign-in?returnTo=%2F');

    // Sign up in the modal: the first field has focus, Escape closes it and gives focus back.
    await header.getByRole('link', { name: 'Sign Up' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create your free account' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Your name')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await header.getByRole('link', { name: 'Sign Up' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Your name').fill('Mara Lind');
    await dialog.getByLabel('Email address').fill(email);
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: `We sent a link to ${email}. Open it within 24 hours to finish creating your account` })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Sign In' })).toBeVisible();

    // The mailed link makes the account and signs in, back where the sign-up started.
    await page.goto(await linkFromOutbox(email, '/sign-in?link='));
    await page.getByRole('button', { name: `Continue as ${email}` }).click();
    await expect(page).toHaveURL(/\/$/);

    // Signed in: the Dashboard link and the avatar menu instead of Sign In and Sign Up.
    await expect(header.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
    const avatar = header.getByRole('button', { name: 'Account menu for Mara Lind' });
    // The initials are drawn from data-initials, so the button's name is the whole of what it says.
    await expect(avatar.locator('[data-initials]')).toHaveAttribute('data-initials', 'ML');

    // The menu by keyboard: ArrowDown opens it on its first item, Escape closes it and returns focus.
    await avatar.focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Dashboard' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Account' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(avatar).toBeFocused();

    // Sign out from the menu: the page loads again signed out.
    await avatar.click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(header.getByRole('link', { name: 'Sign In' })).toBeVisible();
    expect(((await (await context.request.get('/api/auth/session')).json()) as { creator: unknown }).creator).toBeNull();

    // Sign in: a wrong password and an unknown address get the same answer.
    await header.getByRole('link', { name: 'Sign In' }).click();
    const signIn = page.getByRole('dialog', { name: 'Welcome back' });
    await signIn.getByLabel('Email address').fill(email);
    await signIn.getByLabel('Password', { exact: true }).fill('not the password');
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    await expect(signIn.getByRole('alert')).toHaveText('Incorrect email or password.');
    await signIn.getByLabel('Email address').fill(`nobody-${unique()}@studio.test`);
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    await expect(signIn.getByRole('alert')).toHaveText('Incorrect email or password.');
    await signIn.getByLabel('Email address').fill(email);
    await signIn.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    await expect(avatar).toBeVisible();
    await expect(page).toHaveURL(/\/$/);

    // The account page: the name changes, in the header too, and stays after a reload.
    await avatar.click();
    await page.getByRole('menuitem', { name: 'Account' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
    await expect(page.getByText('This device')).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill('Mara Lindqvist');
    await page.getByRole('button', { name: 'Save Name' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Name saved.' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Account menu for Mara Lindqvist' })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Mara Lindqvist');
    await context.close();
  });

  test("the bell's 'Sign Up Free' leads to sign-up, whose mailed link makes the account and brings this browser's sites along, and the way back", async ({ browser, baseURL }) => {
    const email = `ada-${unique()}@studio.test`;
    const context = await browser.newContext({ viewport: VIEWPORTS.wide });
    await publishSite(context.request, baseURL!, { title: 'Kitchen Renders', images: [{ name: 'island.jpg', rgb: [200, 120, 40] }] });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: /^Engagement alerts/ }).click();
    const signUp = page.getByRole('region', { name: 'Engagement Alerts' }).getByRole('link', { name: 'Sign Up Free' });
    await expect(signUp).toHaveAttribute('href', '/sign-in?mode=sign-up&returnTo=%2F');
    await signUp.click();

    await expect(page.getByRole('heading', { name: 'Create your free account', level: 1 })).toBeVisible();
    await page.getByLabel('Your name').fill('Ada Brook');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeFocused();
    await expect(page.getByText('The link also moves the site you published from this browser into your account')).toBeVisible();

    // The link signs in as Ada Brook, goes back to where the sign-up started, and the site is in the dashboard.
    await page.goto(await linkFromOutbox(email, '/sign-in?link='));
    await page.getByRole('button', { name: `Continue as ${email}` }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Account menu for Ada Brook' })).toBeVisible();
    await page.goto('/dashboard');
    await expect(page.getByText('Kitchen Renders').first()).toBeVisible({ timeout: 15_000 });
    await context.close();
  });

  test('an address given in the email modal is confirmed first, then gets a link that signs in on another device and brings the sites along', async ({ browser, baseURL }) => {
    const email = `lena-${unique()}@studio.test`;
    const creator = await browser.newContext({ viewport: VIEWPORTS.wide });
    await publishSite(creator.request, baseURL!, { title: 'Lookbook Autumn', images: [{ name: 'coat.jpg', rgb: [90, 60, 140] }] });
    const page = await creator.newPage();
    await page.goto('/');
    await expect(page.locator('.site-header__account[data-state="signed-out"]')).toBeVisible();
    await page.evaluate(() => window.dispatchEvent(new CustomEvent('dropsite:email-prompt', { detail: { trigger: 'success_page' } })));
    const modal = page.getByRole('dialog', { name: 'Your site is live. Keep it yours.' });
    await modal.getByRole('textbox', { name: 'Email address' }).fill(email);
    await modal.getByRole('button', { name: 'Save my site' }).click();
    const done = page.getByRole('dialog', { name: 'You’re all set' });
    // An address this browser has not confirmed gets the confirmation first, never a link that claims.
    await expect(done).toContainText(`We sent a confirmation link to ${email}`);
    await expect(done.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/sign-in?mode=sign-up&returnTo=%2F');
    const confirmPage = await creator.newPage();
    await confirmPage.goto(await linkFromOutbox(email, '/api/email/confirm?token='));
    await confirmPage.getByRole('button', { name: 'Confirm email address' }).click();
    await expect(confirmPage.getByText('We also sent you a sign-in link')).toBeVisible();

    // Another device: the link names the account, signs in (made on first use) and the sites come along.
    const link = await linkFromOutbox(email, '/sign-in?link=');
    const phone = await browser.newContext({ viewport: VIEWPORTS.phone });
    const phonePage = await phone.newPage();
    await phonePage.goto(link);
    await expect(phonePage.getByText(`This link signs you in as ${email}, and adds the sites it was sent for to that account.`)).toBeVisible();
    await phonePage.getByRole('button', { name: `Continue as ${email}` }).click();
    await expect(phonePage).toHaveURL(/\/dashboard$/);
    await expect(phonePage.getByText('Lookbook Autumn').first()).toBeVisible({ timeout: 15_000 });
    await Promise.all([creator.close(), phone.close()]);
  });

  test('confirming the address, changing it (pending until its link is opened) and resetting the password, each from its emailed link', async ({ browser, baseURL }) => {
    const email = `omar-${unique()}@studio.test`;
    const newEmail = `omar-new-${unique()}@studio.test`;
    const context = await browser.newContext({ viewport: VIEWPORTS.wide });
    const page = await context.newPage();
    const signedUp = await context.request.post('/api/auth/sign-up', { data: { email, password: PASSWORD, name: 'Omar Said' }, headers: { Origin: baseURL! } });
    expect(signedUp.status(), await signedUp.text()).toBe(202);

    // The sign-up's link names the account and does nothing until the button is pressed; then the address is confirmed.
    await page.goto(await linkFromOutbox(email, '/sign-in?link='));
    await expect(page.getByRole('button', { name: `Continue as ${email}` })).toBeVisible();
    expect(((await (await context.request.get('/api/auth/session')).json()) as { creator: unknown }).creator).toBeNull();
    await page.getByRole('button', { name: `Continue as ${email}` }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // A new address waits for its own confirmation, also after a reload.
    await page.goto('/account');
    await expect(page.locator('.account-email .account-badge')).toHaveText('Confirmed');
    await page.getByLabel('New email address').fill(newEmail);
    await page.locator('section', { hasText: 'Email address' }).getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change Email' }).click();
    const pending = page.locator('.account-pending');
    await expect(pending).toHaveText(`Waiting for confirmation: we sent a link to ${newEmail}. Your address stays ${email} until you open it.`);
    await page.reload();
    await expect(pending).toContainText(newEmail);
    await page.goto(await linkFromOutbox(newEmail, '/verify-email?token='));
    await page.getByRole('button', { name: 'Confirm my email' }).click();
    await expect(page.getByRole('status').filter({ hasText: `${newEmail} is confirmed` })).toBeVisible();
    await page.goto('/account');
    await expect(page.locator('.account-email__address')).toHaveText(newEmail);
    await expect(pending).toHaveCount(0);

    // Signed out, 'Forgot password?' mails a link; the new password signs in here and the old one no longer works.
    await page.getByRole('button', { name: 'Account menu for Omar Said' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email address').fill(newEmail);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    await page.goto(await linkFromOutbox(newEmail, '/reset-password?token='));
    await page.getByLabel('New password', { exact: true }).fill('another long secret');
    await page.getByLabel('Repeat the new password').fill('another long secre');
    await expect(page.getByText('The two passwords differ.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save New Password' })).toBeDisabled();
    await page.getByLabel('Repeat the new password').fill('another long secret');
    await page.getByRole('button', { name: 'Save New Password' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(((await (await context.request.get('/api/auth/session')).json()) as { creator: { email: string } }).creator.email).toBe(newEmail);
    const stranger = await browser.newContext();
    const old = await stranger.request.post('/api/auth/sign-in', { data: { email: newEmail, password: PASSWORD }, headers: { Origin: baseURL! } });
    expect(old.status()).toBe(401);
    await Promise.all([context.close(), stranger.close()]);
  });

  test("the wizard's success view offers the sign-up to a signed-out creator, coming back to the landing page", async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: VIEWPORTS.phone });
    const page = await context.newPage();
    await closeEmailPromptWhenShown(page);
    await page.goto('/');
    await page.getByTestId('file-input').setInputFiles(await threeImages(23));
    await walkToPreview(page);
    await page.getByRole('button', { name: 'Publish Site' }).click();
    await expect(page.getByTestId('site-url')).toHaveValue(/^http/, { timeout: 60_000 });
    const note = page.locator('.success__account');
    await expect(note).toHaveText(
      'This site stays online, and this browser can follow it for 7 days. Sign up free to keep it in your dashboard, with everything visitors do on it.',
    );
    await expect(note.getByRole('link', { name: 'Sign up free' })).toHaveAttribute('href', '/sign-in?mode=sign-up&returnTo=%2F');
    await note.scrollIntoViewIfNeeded();
    await shoot(page, 'wizard-success-note-phone-light');
    await context.close();
  });

  test('the account page signs out another device, then every device, and deletes the account once the address and the password are typed', async ({ browser, baseURL }) => {
    const email = `kai-${unique()}@studio.test`;
    const sessionOf = async (context: { request: { get: (url: string) => Promise<{ json: () => Promise<unknown> }> } }) =>
      ((await (await context.request.get('/api/auth/session')).json()) as { creator: unknown }).creator;
    const laptop = await browser.newContext({ viewport: VIEWPORTS.wide });
    const phone = await browser.newContext({ viewport: VIEWPORTS.phone });
    await signUpThroughLink(laptop.request, baseURL!, { email, password: PASSWORD, name: 'Kai Moreno' });
    const signIn = () =>
      phone.request.post('/api/auth/sign-in', {
        data: { email, password: PASSWORD },
        headers: { Origin: baseURL!, 'User-Agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Version/17.5 Mobile/15E148 Safari/604.1' },
      });
    expect((await signIn()).status()).toBe(200);

    const page = await laptop.newPage();
    await page.goto('/account');
    const sessions = page.locator('.account-session');
    await expect(sessions).toHaveCount(2);
    const phoneRow = sessions.filter({ hasText: 'Safari on iOS' });
    await phoneRow.getByRole('button', { name: 'Sign out Safari on iOS' }).click();
    await expect(sessions).toHaveCount(1);
    expect(await sessionOf(phone)).toBeNull();
    expect(await sessionOf(laptop)).not.toBeNull();

    expect((await signIn()).status()).toBe(200);
    await page.reload();
    await expect(sessions).toHaveCount(2);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(await sessionOf(phone)).toBeNull();
    expect(await sessionOf(laptop)).toBeNull();

    // Delete: the button waits for the address, typed in full, and the password; a wrong one is refused.
    const back = await laptop.request.post('/api/auth/sign-in', { data: { email, password: PASSWORD }, headers: { Origin: baseURL! } });
    expect(back.status()).toBe(200);
    await page.goto('/account');
    await page.getByRole('button', { name: 'Delete account…' }).click();
    const confirm = page.getByLabel(`Type ${email} to confirm`);
    await expect(confirm).toBeFocused();
    const remove = page.getByRole('button', { name: 'Delete my account and sites' });
    await confirm.fill('kai@');
    await expect(remove).toBeDisabled();
    await confirm.fill(email);
    await expect(remove).toBeDisabled();
    const password = page.locator('section', { hasText: 'Delete account' }).getByLabel('Your password');
    await password.fill('not the password');
    await remove.click();
    await expect(page.getByRole('alert')).toHaveText('Your current password is not correct.');
    await password.fill(PASSWORD);
    await remove.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('.site-header__account[data-state="signed-out"]')).toBeVisible();
    expect((await laptop.request.post('/api/auth/sign-in', { data: { email, password: PASSWORD }, headers: { Origin: baseURL! } })).status()).toBe(401);
    await Promise.all([laptop.close(), phone.close()]);
  });

  test('the account page shows a pending address change and cancels it from the keyboard; the previous address secures the account by its link', async ({ browser, baseURL }) => {
    const email = `lena-${unique()}@studio.test`;
    const newEmail = `lena-new-${unique()}@studio.test`;
    const context = await browser.newContext({ viewport: VIEWPORTS.phone, colorScheme: 'dark' });
    const page = await context.newPage();
    await signUpThroughLink(context.request, baseURL!, { email, password: PASSWORD, name: 'Lena Park' });

    await page.goto('/account');
    const emailSection = page.locator('section', { hasText: 'Email address' });
    await emailSection.getByLabel('New email address').fill(newEmail);
    await emailSection.getByLabel('Current password').fill(PASSWORD);
    await emailSection.getByRole('button', { name: 'Change Email' }).click();
    const pending = page.locator('.account-pending');
    await expect(pending).toHaveText(`Waiting for confirmation: we sent a link to ${newEmail}. Your address stays ${email} until you open it.`);
    await page.reload();
    await expect(pending).toContainText(newEmail);
    const cancel = page.getByRole('button', { name: `Cancel Change to ${newEmail}` });
    await cancel.scrollIntoViewIfNeeded();
    await shoot(page, 'account-pending-change-phone-dark');
    await cancel.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Change cancelled.' })).toHaveText(`Change cancelled. The link we sent to ${newEmail} no longer works.`);
    await expect(pending).toHaveCount(0);
    await page.reload();
    await expect(page.locator('.account-email__address')).toHaveText(email);
    await expect(pending).toHaveCount(0);

    // The cancelled change's link no longer applies.
    await page.goto(await linkFromOutbox(newEmail, '/verify-email?token='));
    await page.getByRole('button', { name: 'Confirm my email' }).click();
    await expect(page.getByRole('alert')).toHaveText('This sign-in link has expired or was already used. Ask for a new one.');

    // The previous address was told, with a link that secures the account: every device out, no password left.
    const other = await browser.newContext();
    expect((await other.request.post('/api/auth/sign-in', { data: { email, password: PASSWORD }, headers: { Origin: baseURL! } })).status()).toBe(200);
    await page.goto(await linkFromOutbox(email, '/undo-email-change?token='));
    await expect(page.getByRole('heading', { name: 'Secure your account' })).toBeVisible();
    await page.getByRole('button', { name: 'Secure My Account' }).click();
    await expect(page.getByRole('heading', { name: 'Your account is safe' })).toBeFocused();
    expect(((await (await other.request.get('/api/auth/session')).json()) as { creator: unknown }).creator).toBeNull();

    // Without a password, the account page offers a sign-in link; this fresh session may choose a password.
    await page.getByRole('link', { name: 'Choose a Password' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(emailSection.getByLabel('Current password')).toHaveCount(0);
    await expect(emailSection.getByRole('button', { name: 'Email Me a Sign-in Link' })).toBeVisible();
    await shoot(page, 'account-no-password-phone-dark', { fullPage: true });
    const passwordSection = page.locator('section', { hasText: 'Choose a password to sign in with it too' });
    await passwordSection.getByLabel('New password').fill('a fresh long secret');
    await passwordSection.getByRole('button', { name: 'Save Password' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Password saved.' })).toBeVisible();
    await expect(emailSection.getByLabel('Current password')).toBeVisible();
    await Promise.all([context.close(), other.close()]);
  });

  test('the emailed sign-in link signs in only when its button is pressed, and only once', async ({ browser }) => {
    const email = `ines-${unique()}@studio.test`;
    const context = await browser.newContext({ viewport: VIEWPORTS.wide });
    const page = await context.newPage();
    await page.goto('/sign-in?returnTo=%2Faccount');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Email Me a Link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();

    const link = await linkFromOutbox(email, '/sign-in?link=');
    // Opening the link uses nothing up (a mail scanner opens links too).
    const other = await browser.newContext({ viewport: VIEWPORTS.wide });
    const linkPage = await other.newPage();
    await linkPage.goto(link);
    await expect(linkPage.getByRole('heading', { name: 'Finish signing in' })).toBeVisible();
    await expect(linkPage.getByRole('button', { name: `Continue as ${email}` })).toBeFocused();
    expect(((await (await other.request.get('/api/auth/session')).json()) as { creator: unknown }).creator).toBeNull();
    await linkPage.getByRole('button', { name: `Continue as ${email}` }).click();
    // The account was created by the link and the flow returns where it started.
    await expect(linkPage).toHaveURL(/\/account$/);
    await expect(linkPage.locator('.account-email__address')).toHaveText(email);
    await expect(linkPage.locator('.account-email .account-badge')).toHaveText('Confirmed');

    // Used once: a second browser gets the expiry message and a way to ask again, with no button to press.
    const third = await browser.newContext();
    const again = await third.newPage();
    await again.goto(link);
    await expect(again.getByRole('button', { name: /^Continue as/ })).toHaveCount(0);
    await expect(again.getByRole('alert')).toHaveText('This sign-in link has expired or was already used. Ask for a new one.');
    await expect(again.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
    await Promise.all([context.close(), other.close(), third.close()]);
  });

  test('the sign-in page keeps its form in the address and refuses to return anywhere but this site', async ({ page }) => {
    await page.goto('/sign-in?mode=sign-up&returnTo=https%3A%2F%2Fevil.example%2F');
    await expect(page.getByRole('heading', { name: 'Create your free account', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Your name')).toBeFocused();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await expect(page.getByLabel('Email address')).toBeFocused();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`screenshots, ${scheme}`, async ({ browser }) => {
      const email = `shots-${scheme}-${unique()}@studio.test`;
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        const context = await browser.newContext({ viewport, colorScheme: scheme });
        const page = await context.newPage();
        const isPhone = size === 'phone';

        await page.goto('/');
        await expect(page.locator(isPhone ? '.site-header__menu-button' : '.site-header__account[data-state="signed-out"]')).toBeVisible();
        if (isPhone) {
          await page.getByRole('button', { name: 'Menu' }).click();
          await expect(page.locator('.site-header__drawer-auth')).toBeVisible();
        }
        await shoot(page, `header-signed-out-${size}-${scheme}`, { clip: 'header' });
        if (isPhone) await page.getByRole('button', { name: 'Menu' }).click();

        await page.goto('/sign-in');
        await shoot(page, `sign-in-page-${size}-${scheme}`, { fullPage: true });
        await page.goto('/sign-in?mode=sign-up');
        await shoot(page, `sign-up-page-${size}-${scheme}`);

        // The header's modal over the landing page.
        await page.goto('/');
        if (isPhone) await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('link', { name: 'Sign In' }).last().click();
        await expect(page.getByRole('dialog', { name: 'Welcome back' })).toBeVisible();
        await shoot(page, `sign-in-modal-${size}-${scheme}`);
        await page.keyboard.press('Escape');

        // Signed in (the account once, then signed in again for the second size).
        if (size === 'wide') {
          await signUpThroughLink(context.request, new URL(page.url()).origin, { email, password: PASSWORD, name: 'Noor Haddad' });
        } else {
          const reply = await context.request.post('/api/auth/sign-in', { data: { email, password: PASSWORD }, headers: { Origin: new URL(page.url()).origin } });
          expect(reply.status(), await reply.text()).toBe(200);
        }
        await page.goto('/');
        if (isPhone) {
          await page.getByRole('button', { name: 'Menu' }).click();
          await expect(page.locator('.site-header__drawer-account')).toBeVisible();
        } else {
          await page.getByRole('button', { name: 'Account menu for Noor Haddad' }).click();
          await expect(page.getByRole('menu')).toBeVisible();
        }
        await shoot(page, `header-signed-in-${size}-${scheme}`, { clip: 'header' });

        await page.goto('/account');
        await expect(page.getByText('This device')).toBeVisible();
        await shoot(page, `account-page-${size}-${scheme}`, { fullPage: true });
        await context.close();
      }
    });
  }
});
