/**
 * The content pages (FAQ, Help Center, legal pages, About, Contact, Feedback, Plans) as a visitor
 * gets them: complete HTML from the server, the FAQ's one-open-at-a-time topics, the Help Center's
 * search, and everything readable with JavaScript off.
 */
import { expect, type Page, test } from '@playwright/test';

const PAGES = [
  { path: '/faq', h1: 'Frequently asked questions' },
  { path: '/help', h1: 'How can we help?' },
  { path: '/privacy-policy', h1: 'Privacy Policy' },
  { path: '/terms-conditions', h1: 'Terms and Conditions' },
  // The same terms at a second address: its canonical link is the first.
  { path: '/terms-of-service', h1: 'Terms of Service', canonical: '/terms-conditions' },
  { path: '/refund-cancellation', h1: 'Refund and Cancellation Policy' },
  { path: '/about-us', h1: 'Deliver files the way you deliver the work: with care.' },
  { path: '/contact', h1: 'Get in touch' },
  { path: '/feedback', h1: 'Tell us what you think' },
  { path: '/payment', h1: 'Plans and payment' },
] as const;

test('every content page answers 200 with its heading, title, canonical link and link preview in the HTML itself', async ({ request, baseURL }) => {
  for (const page of PAGES) {
    const { path, h1 } = page;
    const canonical = 'canonical' in page ? page.canonical : path;
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    expect(html, path).toMatch(new RegExp(`<h1[^>]*>${h1.replace(/[.?]/g, '\\$&')}</h1>`));
    expect(html, path).toMatch(/<title>[^<]+ · Dropsite<\/title>/);
    expect(html, path).toContain(`<link rel="canonical" href="${baseURL}${canonical}" />`);
    expect(html, path).toMatch(/<meta property="og:title" content="[^"]+" \/>/);
  }
});

test('the Contact and Feedback pages carry their forms, and the Help Center’s feature request opens Feedback with its subject filled', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByRole('textbox', { name: 'Full name' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
  await expect(page.getByText('Reply within 12 hours')).toBeVisible();
  await expect(page.getByRole('link', { name: 'FAQ', exact: true }).first()).toHaveAttribute('href', '/faq');

  await page.goto('/feedback');
  await expect(page.getByRole('textbox', { name: 'Your feedback' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send feedback' })).toBeVisible();

  await page.goto('/help');
  await expect(page.getByRole('link', { name: /Request a feature/ })).toHaveAttribute('href', '/feedback?subject=Feature%20request');
  await page.getByRole('link', { name: /Request a feature/ }).click();
  await expect(page.getByRole('textbox', { name: 'Subject (optional)' })).toHaveValue('Feature request');
});

const faqTopic = (page: Page, name: string) => page.locator('details.faq__section').filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) });

test('the FAQ opens with General, keeps one topic open at a time, and closes the open one when it is clicked', async ({ page }) => {
  await page.goto('/faq');
  const general = faqTopic(page, 'General');
  const billing = faqTopic(page, 'Billing');
  await expect(general).toHaveAttribute('open', '');
  await expect(page.getByRole('heading', { name: 'Do I need an account?' })).toBeVisible();
  await expect(page.locator('details.faq__section[open]')).toHaveCount(1);

  await billing.locator('summary').click();
  await expect(billing).toHaveAttribute('open', '');
  await expect(general).not.toHaveAttribute('open', '');
  await expect(page.getByRole('heading', { name: 'What is your refund policy?' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Do I need an account?' })).toBeHidden();

  await billing.locator('summary').click();
  await expect(page.locator('details.faq__section[open]')).toHaveCount(0);
});

test('a link to an FAQ topic opens that topic', async ({ page }) => {
  await page.goto('/faq#billing');
  await expect(faqTopic(page, 'Billing')).toHaveAttribute('open', '');
  await expect(faqTopic(page, 'General')).not.toHaveAttribute('open', '');
  await expect(page.getByRole('heading', { name: 'What is your refund policy?' })).toBeVisible();
});

test('the FAQ works by keyboard: Enter and Space open a topic and close the other', async ({ page }) => {
  await page.goto('/faq');
  const general = faqTopic(page, 'General');
  const uploads = faqTopic(page, 'Uploads');
  const sharing = faqTopic(page, 'Sharing');

  await uploads.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(uploads).toHaveAttribute('open', '');
  await expect(general).not.toHaveAttribute('open', '');

  await sharing.locator('summary').focus();
  await page.keyboard.press('Space');
  await expect(sharing).toHaveAttribute('open', '');
  await expect(uploads).not.toHaveAttribute('open', '');

  await page.keyboard.press('Space');
  await expect(page.locator('details.faq__section[open]')).toHaveCount(0);
});

test('the FAQ and the refund policy state the same refund rule, word for word', async ({ page }) => {
  const ruleText = async () => ((await page.locator('[data-refund-rule]').textContent()) ?? '').replace(/\s+/g, ' ').trim();
  await page.goto('/refund-cancellation');
  const policy = await ruleText();
  expect(policy).toContain('within 7 days of the payment, with the transaction ID, the payment method and the reason');
  expect(policy).toContain('within 7 to 14 banking days');

  await page.goto('/faq');
  await faqTopic(page, 'Billing').locator('summary').click();
  await expect(page.locator('[data-refund-rule]')).toBeVisible();
  expect(await ruleText()).toBe(policy);
  await expect(page.locator('main')).not.toContainText('10%');
  await expect(page.locator('main')).not.toContainText('Standard');
});

test('the Help Center search filters the categories as you type, says how many match, and shows every category again when cleared', async ({ page }) => {
  await page.goto('/help');
  const categories = page.locator('[data-help-category]');
  const visible = page.locator('[data-help-category]:visible');
  await expect(categories).toHaveCount(6);
  await expect(visible).toHaveCount(6);
  for (const category of ['Getting Started', 'Templates and Design', 'File Management', 'Sharing and Collaboration', 'Account and Billing', 'Troubleshooting']) {
    await expect(page.getByRole('heading', { level: 2, name: category })).toBeVisible();
  }
  // Each shows three articles with a read time.
  await expect(categories.first().locator('.help-article')).toHaveCount(3);
  await expect(
    categories
      .first()
      .getByText(/\d+ min read/)
      .first(),
  ).toBeVisible();

  const search = page.getByRole('searchbox', { name: 'Search the Help Center' });
  const status = page.getByRole('main').getByRole('status');
  await search.click();
  await page.keyboard.type('QR code');
  await expect(visible).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 2, name: 'Sharing and Collaboration' })).toBeVisible();
  await expect(status).toHaveText('1 of 6 help categories match "QR code".');

  // Two categories have an article about passwords.
  await search.fill('password');
  await expect(visible).toHaveCount(2);
  await expect(status).toHaveText('2 of 6 help categories match "password".');

  // By a category's description.
  await search.fill('signing in');
  await expect(visible).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 2, name: 'Account and Billing' })).toBeVisible();

  await search.fill('zzqxv nothing like this');
  await expect(visible).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'No results for "zzqxv nothing like this"' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Contact support' }).first()).toHaveAttribute('href', '/contact');
  await expect(status).toHaveText('No results for "zzqxv nothing like this".');

  await search.fill('');
  await expect(visible).toHaveCount(6);
  await expect(page.getByRole('heading', { name: /No results for/ })).toBeHidden();
  await expect(status).toHaveText('Showing all 6 help categories.');
});

test('a help article opens in place by keyboard', async ({ page }) => {
  await page.goto('/help');
  const article = page.locator('details#password-and-expiry');
  await article.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(article).toHaveAttribute('open', '');
  await expect(article.getByText('A password must be at least 8 characters.')).toBeVisible();
});

test('the plans page shows prices in US dollars, leads to the billing page to buy Pro, and opens Contact Sales', async ({ page }) => {
  await page.goto('/payment');
  await expect(page.getByText('Choose a plan from your billing page', { exact: true })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Choose Pro' })).toHaveAttribute('href', '/billing');
  for (const price of ['$0', '$19', '$49']) await expect(page.locator('.payment-plan__amount', { hasText: price })).toBeVisible();
  await expect(page.locator('main')).not.toContainText('₹');
  await expect(page.getByRole('main').getByRole('button', { name: /buy|upgrade|subscribe/i })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Tell us in the feedback form' })).toHaveAttribute('href', '/feedback');

  const dialog = page.getByRole('dialog', { name: 'Contact Sales' });
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Contact Sales' }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the FAQ, the Help Center and the legal pages are complete and readable', async ({ page }) => {
    await page.goto('/faq');
    await expect(page.getByRole('heading', { name: 'What is Dropsite?' })).toBeVisible();
    await expect(page.getByText('Dropsite turns the files you drop into a small website')).toBeVisible();
    // Native disclosure: another topic still opens without a script, and closes General.
    await faqTopic(page, 'Technical').locator('summary').click();
    await expect(page.getByRole('heading', { name: 'Do you track my visitors?' })).toBeVisible();
    await expect(faqTopic(page, 'General')).not.toHaveAttribute('open', '');

    await page.goto('/help');
    await expect(page.locator('[data-help-category]:visible')).toHaveCount(6);

    for (const [path, text] of [
      ['/privacy-policy', 'We do not use advertising cookies'],
      ['/terms-conditions', 'You must be at least 13 years old'],
      ['/terms-of-service', 'limited to the amount you paid us in the 90 days'],
      ['/refund-cancellation', 'You can cancel a paid plan at any time.'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByText(text), path).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'On this page' }), path).toBeVisible();
      await expect(page.locator('time[datetime="2025-09-10"]').first(), path).toHaveText('10 September 2025');
    }
  });

  test('a legal page’s table of contents links to its sections', async ({ page }) => {
    await page.goto('/terms-conditions');
    const toc = page.getByRole('navigation', { name: 'On this page' });
    await expect(toc.getByRole('link')).toHaveCount(13);
    await toc.getByRole('link', { name: /Limitation of liability/ }).click();
    await expect(page).toHaveURL(/#liability$/);
    await expect(page.getByRole('heading', { level: 2, name: '10. Limitation of liability' })).toBeInViewport();
  });
});
