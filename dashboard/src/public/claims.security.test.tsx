/**
 * Every word true: the landing page and the public pages are rendered as the prerender writes them,
 * and every price, billing interval and number of days they state is checked against the plan
 * catalogue (shared/src/plans.ts), the configuration's defaults (shared/src/constants.ts) and the
 * named policies; no page may say paid plans are not on sale while checkout exists, and none may
 * say a site published without an account disappears after the anonymous window (it stays online;
 * only the browser's hold on it ends).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS_WINDOW_DAYS, EXPIRED_SITE_GRACE_DAYS, SIGN_IN_SESSION_DAYS, VISITOR_ID_MAX_AGE_DAYS } from '@dropsite/shared/constants';
import { BILLING_INTERVALS, PAID_PLAN_IDS, PAYMENT_GRACE_DAYS, PLAN_IDS, PLANS, TRIAL_DAYS } from '@dropsite/shared/plans';
import { REFUND_WINDOW_DAYS } from './content/refund-rule.tsx';
import { LIABILITY_WINDOW_DAYS } from './pages/terms.tsx';
import { renderLanding, renderPublicPages } from './prerender.tsx';

/** The pages that state what the product does, costs and keeps (not the blog, demos or the 404). */
const CLAIM_PATHS = ['/', '/faq', '/help', '/privacy-policy', '/terms-conditions', '/terms-of-service', '/refund-cancellation', '/payment', '/about-us', '/contact'];

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: ' ', '#x27': "'", '#39': "'" };

function textOf(html: string): string {
  return html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(amp|lt|gt|quot|nbsp|#x27|#39);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:)])/g, '$1')
    .trim();
}

const PAGES: ReadonlyMap<string, string> = new Map(
  [...renderPublicPages().map((page) => [page.path, page.html] as const), ['/', renderLanding()] as const]
    .filter(([path]) => CLAIM_PATHS.includes(path))
    .map(([path, html]) => [path, textOf(html)] as const),
);

/** Sentences (split at a full stop, semicolon, or a list item's end) with the page they are on. */
function sentences(): Array<{ path: string; sentence: string }> {
  return [...PAGES].flatMap(([path, text]) => text.split(/(?<=[.;!?])\s+/).map((sentence) => ({ path, sentence })));
}

describe('what the public pages claim', () => {
  it('renders every page that states a claim', () => {
    expect([...PAGES.keys()].sort()).toEqual([...CLAIM_PATHS].sort());
  });

  it('no page says paid plans are unavailable, coming or not built while checkout sells them', () => {
    expect(PAID_PLAN_IDS.length).toBeGreaterThan(0);
    const unavailable =
      /not on sale|once (?:they|paid plans) are on sale|(?:paid plans?|payments?|billing|checkout)[^.]{0,40}(?:coming soon|not (?:yet )?(?:available|built|live))|payment integration is coming/i;
    for (const { path, sentence } of sentences()) expect(sentence, path).not.toMatch(unavailable);
    // Where the pages say how to buy, they say it is through checkout, monthly or yearly.
    for (const path of ['/faq', '/payment', '/help']) expect(PAGES.get(path)).toMatch(/Stripe’s (?:secure )?checkout/);
  });

  it('a page that says how plans are billed names every interval sold, never monthly alone', () => {
    expect(BILLING_INTERVALS).toEqual(['monthly', 'yearly']);
    let billed = 0;
    for (const { path, sentence } of sentences()) {
      if (!/\bmonthly\b/i.test(sentence)) continue;
      billed += 1;
      for (const interval of BILLING_INTERVALS) expect(sentence, `${path}: ${sentence}`).toMatch(new RegExp(`\\b${interval}\\b`, 'i'));
    }
    expect(billed).toBeGreaterThan(3);
  });

  it('every price a page states is a plan’s monthly or yearly price, and “ten months” is what a year costs', () => {
    const prices = new Set(PLAN_IDS.flatMap((id) => [PLANS[id].price, PLANS[id].yearlyPrice]));
    for (const [path, text] of PAGES) {
      for (const match of text.matchAll(/\$\s?(\d[\d,]*(?:\.\d+)?)/g)) expect(prices, `${path}: $${match[1]}`).toContain(Number(match[1]?.replace(/,/g, '')));
      for (const match of text.matchAll(/(\w+) \$(\d+) (?:\/ month|a month)/g)) {
        const plan = PLAN_IDS.map((id) => PLANS[id]).find((p) => p.name === match[1]);
        if (plan) expect(plan.price, path).toBe(Number(match[2]));
      }
      if (/ten months/.test(text)) for (const id of PAID_PLAN_IDS) expect(PLANS[id].yearlyPrice, `${path}: a year of ${id}`).toBe(PLANS[id].price * 10);
    }
  });

  it('every storage and delivery size a page states is one of the plans’ limits', () => {
    const GB = 1024 ** 3;
    const sizes = new Set(
      PLAN_IDS.flatMap((id) => [PLANS[id].limits.storage, PLANS[id].maxDeliveryBytes])
        .filter((bytes) => bytes > 0)
        .map((bytes) => bytes / GB),
    );
    for (const [path, text] of PAGES) for (const match of text.matchAll(/(\d+) GB/g)) expect(sizes, `${path}: ${match[0]}`).toContain(Number(match[1]));
  });

  it('every number of days a page states comes from the catalogue, the configuration or a named policy', () => {
    // Each claim, told by its sentence, must quote its own source; any other number of days must be one of them.
    const rules: Array<{ about: RegExp; days: number }> = [
      { about: /trial/i, days: TRIAL_DAYS },
      { about: /without an account|browser (?:you|that you|it was) published|browser you used|that browser/i, days: ANONYMOUS_WINDOW_DAYS },
      { about: /expire[sd]?\b.*removed|removed.*expire/i, days: EXPIRED_SITE_GRACE_DAYS },
      { about: /sign-in session/i, days: SIGN_IN_SESSION_DAYS },
      { about: /visitor id/i, days: VISITOR_ID_MAX_AGE_DAYS },
      { about: /refund/i, days: REFUND_WINDOW_DAYS },
      { about: /paid us in the/i, days: LIABILITY_WINDOW_DAYS },
      { about: /failed (?:payment|renewal)/i, days: PAYMENT_GRACE_DAYS },
    ];
    const known = new Set(rules.map((rule) => rule.days));
    let claims = 0;
    for (const { path, sentence } of sentences()) {
      for (const match of sentence.matchAll(/\b(\d+)[ -]days?\b/g)) {
        claims += 1;
        const days = Number(match[1]);
        const rule = rules.find((r) => r.about.test(sentence));
        if (rule) expect(days, `${path}: ${sentence}`).toBe(rule.days);
        else expect(known, `${path}: ${sentence}`).toContain(days);
      }
      expect(sentence, `${path}: a week is not a setting`).not.toMatch(/\b(?:a|about a|one) week\b/i);
    }
    expect(claims).toBeGreaterThan(5);
  });

  it('no page says a site published without an account disappears after the anonymous window: it stays online', () => {
    const disappears = /(?:live|lasts?|kept|deleted|removed|disappears?|goes? offline)\w* (?:for|after) \d+ days/i;
    for (const { path, sentence } of sentences()) {
      if (/without an account|anonymous/i.test(sentence)) expect(sentence, path).not.toMatch(disappears);
    }
    const landing = PAGES.get('/') ?? '';
    expect(landing).toContain(`Sites you publish without an account stay online, and the browser you published from can follow them for ${ANONYMOUS_WINDOW_DAYS} days.`);
    expect(PAGES.get('/faq')).toContain(`The site stays online, and the browser you published it from can follow and manage it for ${ANONYMOUS_WINDOW_DAYS} days.`);
  });

  it('the wizard, the sign-up form and the prompts quote the anonymous window from its constant, not as a written number', () => {
    const files = [
      '../wizard/success-step.tsx',
      '../pages/landing/sign-up-prompt-section.tsx',
      '../auth/auth-form.tsx',
      '../engagement/email-copy.ts',
      '../engagement/notifications.ts',
      './content/help-center.ts',
      './pages/faq.tsx',
      './pages/privacy-policy.tsx',
      './pages/terms.tsx',
    ];
    for (const file of files) {
      const code = readFileSync(new URL(file, import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/\b\d+[ -]days?\b/);
      expect(code, file).not.toMatch(/\b(?:live|lasts?) for\b/);
    }
  });
});
