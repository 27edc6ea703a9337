/**
 * The public forms in a real Chromium: the contact form's round trip (the shared checks' messages,
 * sent, the confirmation shown and focused, the message stored, an email to the operator in the
 * server's outbox, 'Send another message'), a refusal shown in the form with every value kept,
 * Feedback's star rating by keyboard and the subject from ?subject=, Contact Sales closing its
 * dialog after 3 seconds, the newsletter's confirmation link, and the contact form with JavaScript
 * off. Screenshots at 375 px, light and dark, go to /tmp/shots-forms/.
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

const SHOTS = '/tmp/shots-forms';
const dataDir = () => process.env.E2E_DATA_DIR ?? '';

/** A row of the server's database (SQLite under DATA_DIR), read-only. */
function storedMessage(marker: string): Record<string, unknown> | undefined {
  const db = new DatabaseSync(path.join(dataDir(), 'dropsite.db'), { readOnly: true });
  try {
    return db.prepare('select * from messages where message like ?').get(`%${marker}%`) as Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}

/** The text of the newest outbox message containing `marker`, decoded enough to read its headers and links. */
async function mailContaining(marker: string): Promise<string> {
  const outbox = path.join(dataDir(), 'outbox');
  let found = '';
  await expect
    .poll(
      async () => {
        const names = (await readdir(outbox).catch(() => [] as string[]))
          .filter((n) => n.endsWith('.eml'))
          .sort()
          .reverse();
        for (const name of names) {
          // Folded headers unfolded; in the body, quoted-printable soft breaks joined and =XX decoded, so links
          // read as written. The headers are left as they are: a link there (List-Unsubscribe) is not encoded, and
          // decoding it would read its `id=36…` as `id6…`.
          const message = await readFile(path.join(outbox, name), 'utf8');
          const split = message.search(/\r?\n\r?\n/);
          const headers = message.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
          const body = message
            .slice(split)
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
          const raw = headers + body;
          if (raw.includes(marker)) {
            found = raw;
            return true;
          }
        }
        return false;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found;
}

/** The page with its forms island mounted (the island marks each form it enhances). */
async function openForm(page: Page, url: string, kind: string) {
  await page.goto(url);
  const form = page.locator(`form[data-form="${kind}"]`);
  await expect(form).toHaveAttribute('data-enhanced', 'true');
  return form;
}

test.describe('the public forms', () => {
  test('the contact form round trip: checked, sent, confirmed, stored and emailed to the operator', async ({ page }) => {
    const marker = `round-trip-${Date.now()}`;
    const form = await openForm(page, '/contact', 'contact');

    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText('Please enter your name.')).toBeVisible();
    await expect(form.getByText('Please enter your message.')).toBeVisible();
    await expect(form.getByLabel('Full name')).toBeFocused();
    await expect(form.getByLabel('Full name')).toHaveAttribute('aria-invalid', 'true');

    await form.getByLabel('Full name').fill('Ada Lovelace');
    await expect(form.getByText('Please enter your name.')).toBeHidden();
    await form.getByLabel('Email address').fill('ada@studio');
    await form.getByLabel('Subject').fill('Custom domain');
    await form.getByLabel('Message').fill(`Can my sites live on files.studio.example? ${marker}`);
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.locator('[data-error-for="email"]')).toHaveText('Please enter a valid email address.');
    await expect(form.getByLabel('Email address')).toBeFocused();
    await form.getByLabel('Email address').fill('ada@studio.example');
    await form.getByLabel('Email address').press('Enter');

    const done = page.getByRole('heading', { name: 'Message sent' });
    await expect(done).toBeVisible();
    await expect(done).toBeFocused();
    await expect(page.getByText('We’ll get back to you within 24 hours.').first()).toBeVisible();
    await expect(form).toBeHidden();

    expect(storedMessage(marker)).toMatchObject({ kind: 'contact', name: 'Ada Lovelace', email: 'ada@studio.example', subject: 'Custom domain' });
    const mail = await mailContaining(marker);
    expect(mail).toMatch(/^Subject: Contact: Custom domain$/m);
    expect(mail).toMatch(/^Reply-To: ada@studio\.example$/m);

    await mkdir(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${SHOTS}/contact-sent-375-dark.png`, fullPage: true });

    await page.getByRole('button', { name: 'Send another message' }).click();
    await expect(form).toBeVisible();
    await expect(form.getByLabel('Full name')).toHaveValue('');
    await expect(form.getByLabel('Full name')).toBeFocused();
  });

  test("a refusal shows the server's message in the form and keeps every value", async ({ page }) => {
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, error: 'Too many messages from your connection. Please try again in 6 minutes.', code: 'rate_limited' }),
      }),
    );
    const form = await openForm(page, '/contact', 'contact');
    await form.getByLabel('Full name').fill('Ada');
    await form.getByLabel('Email address').fill('ada@studio.example');
    await form.getByLabel('Subject').fill('Hello');
    await form.getByLabel('Message').fill('Still here after the refusal');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByRole('alert')).toHaveText('Too many messages from your connection. Please try again in 6 minutes.');
    await expect(form.getByLabel('Message')).toHaveValue('Still here after the refusal');
    await expect(form.getByLabel('Full name')).toHaveValue('Ada');
    await expect(form.getByRole('button', { name: 'Send message' })).not.toHaveAttribute('aria-busy', 'true');

    await mkdir(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 375, height: 740 });
    await form.screenshot({ path: `${SHOTS}/contact-refused-375-light.png` });
  });

  test("feedback: 'Request Template' fills the subject, the stars are chosen by keyboard, a thank-you follows", async ({ page }) => {
    const marker = `feedback-${Date.now()}`;
    const form = await openForm(page, '/feedback?subject=Request%20Template', 'feedback');
    await expect(form.getByLabel('Subject')).toHaveValue('Request Template');

    // Into the radio group by Tab from the email field, then arrows: 1 → 4 stars.
    await form.getByLabel('Email address').focus();
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('1 star', { exact: true })).toBeFocused();
    await page.keyboard.press('Space');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await expect(form.getByLabel('4 stars')).toBeChecked();

    await form.getByLabel('Your feedback').fill(`A template for recipe books, please. ${marker}`);
    await form.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you for your feedback!' })).toBeFocused();
    expect(storedMessage(marker)).toMatchObject({ kind: 'feedback', subject: 'Request Template', rating: 4, name: '', email: '' });

    await mkdir(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('button', { name: 'Send more feedback' }).click();
    await form.getByLabel('3 stars').check();
    await form.screenshot({ path: `${SHOTS}/feedback-375-dark.png` });
  });

  test('Contact Sales confirms, then closes its dialog after 3 seconds with the form cleared', async ({ page }) => {
    const marker = `sales-${Date.now()}`;
    await page.goto('/payment');
    await page.getByRole('button', { name: 'Contact Sales' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Contact Sales' });
    await expect(dialog).toBeVisible();
    const form = dialog.locator('form[data-form="sales"]');
    await expect(form).toHaveAttribute('data-enhanced', 'true');
    await form.getByLabel('Full name').fill('Mira Chen');
    await form.getByLabel('Work email').fill('mira@agency.example');
    await form.getByLabel('Company name').fill('North Agency');
    await form.getByLabel('Message').fill(`Twelve seats from January. ${marker}`);

    await mkdir(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 375, height: 740 });
    await page.screenshot({ path: `${SHOTS}/sales-dialog-375-light.png` });

    await form.getByRole('button', { name: 'Contact Sales' }).click();
    await expect(dialog.getByText('Our sales team will contact you within 24 hours.')).toBeVisible();
    expect(storedMessage(marker)).toMatchObject({ kind: 'sales', company: 'North Agency', email: 'mira@agency.example' });
    await expect(dialog).toBeHidden({ timeout: 6_000 });

    await page.getByRole('button', { name: 'Contact Sales' }).first().click();
    await expect(form).toBeVisible();
    await expect(form.getByLabel('Company name')).toHaveValue('');

    // Closed by Escape before the 3 seconds: it opens again on the empty form, not the confirmation.
    await form.getByLabel('Full name').fill('Mira Chen');
    await form.getByLabel('Work email').fill('mira@agency.example');
    await form.getByLabel('Company name').fill('North Agency');
    await form.getByLabel('Message').fill(`A second question. ${marker}-2`);
    await form.getByRole('button', { name: 'Contact Sales' }).click();
    await expect(dialog.getByText('Our sales team will contact you within 24 hours.')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Contact Sales' }).first().click();
    await expect(form).toBeVisible();
    await expect(form.getByLabel('Full name')).toHaveValue('');
  });

  test('Contact Sales opens and closes in a browser without invoker commands, through the forms script', async ({ page }) => {
    // As an older browser would be: buttons with commandfor do nothing by themselves.
    await page.addInitScript(() => {
      delete (HTMLButtonElement.prototype as { commandForElement?: unknown }).commandForElement;
      document.addEventListener('command', (event) => event.preventDefault(), true);
    });
    await page.goto('/payment');
    await expect(page.locator('form[data-form="sales"]')).toHaveAttribute('data-enhanced', 'true');
    await page.getByRole('button', { name: 'Contact Sales' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Contact Sales' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  });

  test('the newsletter box sends a confirmation link; the link subscribes through its button', async ({ page }) => {
    await page.goto('/');
    const form = page.locator('form[data-form="newsletter"]');
    await expect(form).toHaveAttribute('data-enhanced', 'true');
    const address = `reader-${Date.now()}@example.com`;
    await form.getByLabel('Email for product news').fill(address);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByText('Check your inbox')).toBeVisible();

    const mail = await mailContaining(address);
    expect(mail).toMatch(/^List-Unsubscribe: <http[^>]+\/api\/newsletter\/unsubscribe\?id=/m);
    const link = /https?:\/\/\S+\/api\/newsletter\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(mail)?.[0];
    expect(link).toBeTruthy();
    await page.goto(link!);
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
  });
});

test('no serious accessibility violations in the forms as they change: errors shown, a refusal, the open sales dialog', async ({ page }) => {
  const check = async (label: string, include: string) => {
    const results = await new AxeBuilder({ page }).include(include).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious).toEqual([]);
  };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const form = await openForm(page, '/contact', 'contact');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.locator('[data-error-for="name"]')).toBeVisible();
    await check(`contact errors (${scheme})`, 'form[data-form="contact"]');

    await page.route('**/api/feedback', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, error: 'Please try again later.', code: 'service_unavailable' }) }),
    );
    const feedback = await openForm(page, '/feedback', 'feedback');
    await feedback.getByLabel('2 stars').check();
    await feedback.getByLabel('Your feedback').fill('Hello');
    await feedback.getByRole('button', { name: 'Send feedback' }).click();
    await expect(feedback.getByRole('alert')).toHaveText('Please try again later.');
    await check(`feedback refused (${scheme})`, 'form[data-form="feedback"]');

    await page.goto('/payment');
    await page.getByRole('button', { name: 'Contact Sales' }).first().click();
    await expect(page.getByRole('dialog', { name: 'Contact Sales' })).toBeVisible();
    await check(`sales dialog (${scheme})`, 'dialog');
  }
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the contact form posts and the server answers its confirmation page', async ({ page }) => {
    const marker = `no-js-${Date.now()}`;
    await page.goto('/contact');
    const form = page.locator('form[data-form="contact"]');
    await form.getByLabel('Full name').fill('Grace Hopper');
    await form.getByLabel('Email address').fill('grace@navy.example');
    await form.getByLabel('Subject').fill('Without scripts');
    await form.getByLabel('Message').fill(`Sent as a plain form. ${marker}`);
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('heading', { name: 'Message sent' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Contact' })).toHaveAttribute('href', '/contact');
    expect(storedMessage(marker)).toMatchObject({ kind: 'contact', name: 'Grace Hopper' });
  });
});
