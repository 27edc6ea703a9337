import { load } from 'cheerio';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { makeSubscription } from '@dropsite/testkit/dashboard/fixtures';
import { BILLING_ERRORS, PLANS, type TSubscription, type TSubscriptionResponse, type TUsageResponse } from '@dropsite/shared';
import { BillingDetails } from './billing-details.tsx';

const GB = 1024 ** 3;
const noop = () => undefined;

/** A free account's subscription whose trial is used up, unless `overrides` say otherwise. */
const subscription = (overrides: Partial<TSubscription> = {}): TSubscription => makeSubscription({ trial_available: false, ...overrides });

const usage = (overrides: Partial<TUsageResponse> = {}): TUsageResponse => ({
  success: true,
  currentUsage: { storage_used: 2 * GB, projects_count: 2, collaborators_count: 1, api_requests_count: 0 },
  limits: { ...PLANS.free.limits, delivery_size: 2 * GB },
  plan_id: 'free',
  period: '2026-11',
  over_limit: false,
  ...overrides,
});

function render(
  billing: Partial<TSubscriptionResponse> & { subscription: TSubscription },
  usageAnswer = usage(),
  creator = { email: 'ada@studio.example', isEmailConfirmed: true },
  canManage = true,
) {
  return load(
    renderToStaticMarkup(
      createElement(BillingDetails, {
        billing: { success: true, billing_configured: true, ...billing },
        usage: usageAnswer,
        interval: 'monthly',
        onInterval: noop,
        busy: null,
        isWaiting: false,
        actionError: null,
        ...creator,
        onCheckout: noop,
        onPortal: noop,
        onTrial: noop,
        canManage,
      }),
    ),
  );
}

describe('the billing dashboard', () => {
  it('offers the trial to an unconfirmed address only once it is confirmed, with the link to send again', () => {
    const $ = render({ subscription: subscription({ trial_available: true }) }, usage(), { email: 'new@studio.example', isEmailConfirmed: false });
    const trial = $('button:contains("Start 14-day Pro trial")');
    expect(trial.attr('disabled')).toBeDefined();
    const note = $(`#${trial.attr('aria-describedby')}`);
    expect(note.text()).toBe('Confirm your email address to start your free 14-day Pro trial: open the link we emailed to new@studio.example, or send a new one.');
    expect($('.billing-confirm button').text()).toBe('Send confirmation link');

    const confirmed = render({ subscription: subscription({ trial_available: true }) });
    expect(confirmed('button:contains("Start 14-day Pro trial")').attr('disabled')).toBeUndefined();
    expect(confirmed('.billing-confirm')).toHaveLength(0);
  });

  it('without Stripe keys shows the plans, says billing is not configured, and offers nothing to pay', () => {
    const $ = render({ billing_configured: false, subscription: subscription({ trial_available: true }) });
    expect($('[role=note] .billing-banner__title').first().text()).toBe(BILLING_ERRORS.billing_not_configured.message);
    expect($('.billing-plan')).toHaveLength(3);
    const upgrades = $('button:contains("Upgrade to")');
    expect(upgrades.length).toBeGreaterThan(0);
    upgrades.each((_, button) => expect($(button).attr('disabled')).toBeDefined());
    expect($('button:contains("Manage billing")')).toHaveLength(0);
    // The trial needs no card, so it stays on offer.
    expect($('button:contains("Start 14-day Pro trial")').attr('disabled')).toBeUndefined();
  });

  it('on Free offers Upgrade to Pro, with a bar for each limited meter and none for what Free does not include', () => {
    const $ = render({ subscription: subscription() });
    expect($('.billing-current__name').text()).toBe('Free');
    expect($('.billing-current .billing-badge').text()).toBe('Active');
    expect($('.billing-current button:contains("Upgrade to Pro")').attr('disabled')).toBeUndefined();
    const meters = $('[role=meter]');
    expect(meters.map((_, m) => $(m).attr('aria-label')).get()).toEqual(['Storage used', 'Active sites used', 'Collaborators used']);
    expect(meters.map((_, m) => $(m).attr('aria-valuenow')).get()).toEqual(['40', '67', '100']);
  });

  it('past due: a banner with the grace period and the way to update the card, and a destructive badge', () => {
    const graceEnd = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const $ = render(
      {
        subscription: subscription({
          plan_id: 'pro_monthly',
          status: 'past_due',
          interval: 'monthly',
          has_billing_account: true,
          grace_period_end: graceEnd,
          current_period_end: graceEnd,
        }),
      },
      usage({ plan_id: 'pro_monthly', limits: { ...PLANS.pro_monthly.limits, delivery_size: 25 * GB } }),
    );
    const banner = $('[role=alert]').filter((_, el) => $(el).text().includes('Your last payment failed'));
    expect(banner).toHaveLength(1);
    expect(banner.text()).toMatch(/Pro’s limits stay until [A-Z][a-z]+ \d{1,2}, \d{4} \(5 days left\)/);
    expect(banner.find('button').text()).toBe('Update payment method');
    expect($('.billing-current .billing-badge').attr('data-tone')).toBe('destructive');
    expect($('.billing-current .billing-badge').text()).toBe('Past due');
    // Unlimited sites: no bar, however many.
    expect($('[role=meter][aria-label="Active sites used"]')).toHaveLength(0);
  });

  it('paying for Pro: Manage billing, and Business through the portal (a second checkout would be refused) or sales', () => {
    const $ = render(
      { subscription: subscription({ plan_id: 'pro_monthly', interval: 'yearly', has_billing_account: true, current_period_end: '2027-11-26T12:00:00.000Z' }) },
      usage({ plan_id: 'pro_monthly', limits: { ...PLANS.pro_monthly.limits, delivery_size: 25 * GB } }),
    );
    expect($('.billing-current__price').text()).toBe(`$${PLANS.pro_monthly.yearlyPrice} / year`);
    expect($('.billing-current__date').text()).toBe('Renews on November 26, 2027.');
    expect(
      $('.billing-current button')
        .map((_, b) => $(b).text())
        .get(),
    ).toEqual(['Manage billing']);
    const business = $('.billing-plan').filter((_, el) => $(el).find('h3').text() === 'Business');
    expect(business.find('button').text()).toBe('Switch to Business');
    expect(business.find('a').attr('href')).toBe('/payment');
    expect($('button:contains("Upgrade to")')).toHaveLength(0);
  });

  it('over the limits after a downgrade: says so, keeps every site, and the bar stops at 100 %', () => {
    const $ = render(
      { subscription: subscription({ status: 'cancelled', has_billing_account: true, current_period_end: '2026-11-01T12:00:00.000Z' }) },
      usage({ currentUsage: { storage_used: 9 * GB, projects_count: 7, collaborators_count: 1, api_requests_count: 0 }, over_limit: true }),
    );
    expect($('[role=note]').text()).toContain(BILLING_ERRORS.over_plan_limits.message);
    expect($('[role=meter][aria-label="Active sites used"]').attr('aria-valuenow')).toBe('100');
    expect($('.billing-meter[data-level=over]')).toHaveLength(2);
    expect($('.billing-current__date').text()).toBe('Your paid plan ended on November 1, 2026.');
  });

  it('to a member who does not own the workspace: the plan and its use, no action on it, and who can change it', () => {
    const free = render({ subscription: subscription({ trial_available: true }) }, usage(), { email: 'ivy@studio.example', isEmailConfirmed: true }, false);
    expect(free('.billing-current__name').text()).toBe('Free');
    expect(free('[role=meter]').length).toBeGreaterThan(0);
    expect(free('[role=note]:contains("Only the workspace’s owner can change the plan.")')).toHaveLength(1);
    expect(free('button:contains("Upgrade to")')).toHaveLength(0);
    expect(free('button:contains("Start 14-day Pro trial")')).toHaveLength(0);

    const paying = render(
      { subscription: subscription({ plan_id: 'pro_monthly', status: 'past_due', has_billing_account: true, current_period_end: '2027-11-26T12:00:00.000Z' }) },
      usage({ plan_id: 'pro_monthly', limits: { ...PLANS.pro_monthly.limits, delivery_size: 25 * GB } }),
      { email: 'ivy@studio.example', isEmailConfirmed: true },
      false,
    );
    expect(paying('button')).toHaveLength(0);
  });
});
