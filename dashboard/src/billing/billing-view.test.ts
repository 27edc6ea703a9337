import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import { BILLING_ERRORS, PLANS, type TSubscription } from '@dropsite/shared';
import { describe, expect, it } from 'vitest';
import { makeSubscription } from '@dropsite/testkit/dashboard/fixtures';
import { UploadError } from '../upload/upload-errors.ts';
import {
  billingActionMessage,
  billingLoadMessage,
  daysUntil,
  describeUsage,
  formatBillingDate,
  formatLimit,
  formatPrice,
  hasPaidSubscription,
  isCheckoutFulfilled,
  meterLevel,
  planOffer,
  planLimitOf,
  readCheckoutReturn,
  statusBadge,
  usageMeters,
  usagePercent,
  yearlySaving,
} from './billing-view.ts';

const GB = 1024 ** 3;

describe('usage bars', () => {
  it('fills in proportion to the limit, rounded to whole percent', () => {
    expect(usagePercent(0, 3)).toBe(0);
    expect(usagePercent(1, 3)).toBe(33);
    expect(usagePercent(2, 3)).toBe(67);
    expect(usagePercent(2.5 * GB, 5 * GB)).toBe(50);
  });

  it('stops at 100 % however far over the limit (a downgrade keeps every site)', () => {
    expect(usagePercent(3, 3)).toBe(100);
    expect(usagePercent(12, 3)).toBe(100);
    expect(usagePercent(80 * GB, 5 * GB)).toBe(100);
  });

  it('has no bar for an unlimited limit, and a full one for anything used of nothing', () => {
    expect(usagePercent(123, -1)).toBeNull();
    expect(usagePercent(0, 0)).toBe(0);
    expect(usagePercent(5, 0)).toBe(100);
  });

  it('says what is used of what, in Bytes to TB for storage', () => {
    expect(describeUsage(1.5 * GB, 5 * GB, 'bytes')).toBe('1.5 GB of 5 GB');
    expect(describeUsage(0, 5 * GB, 'bytes')).toBe('0 Bytes of 5 GB');
    expect(describeUsage(2, 3, 'count')).toBe('2 of 3');
    expect(describeUsage(1234, -1, 'count')).toBe('1,234 · Unlimited');
    expect(describeUsage(0, 0, 'count')).toBe('Not included in this plan');
    expect(formatLimit(-1, 'bytes')).toBe('Unlimited');
    expect(formatLimit(25 * GB, 'bytes')).toBe('25 GB');
    expect(formatLimit(0, 'count')).toBe('Not included');
  });

  it('reads the four meters in the spec order from the usage answer', () => {
    const meters = usageMeters(
      { storage_used: GB, projects_count: 2, collaborators_count: 1, api_requests_count: 0 },
      { storage: 5 * GB, projects: 3, collaborators: 1, api_requests: 0, delivery_size: 2 * GB },
    );
    expect(meters.map((m) => [m.label, m.used, m.limit])).toEqual([
      ['Storage', GB, 5 * GB],
      ['Active sites', 2, 3],
      ['Collaborators', 1, 1],
      ['API requests this month', 0, 0],
    ]);
    expect(meterLevel(3, 3)).toBe('full');
    expect(meterLevel(4, 3)).toBe('over');
    expect(meterLevel(4.1 * GB, 5 * GB)).toBe('high');
    expect(meterLevel(1, 3)).toBe('ok');
    expect(meterLevel(0, 0)).toBe('ok');
    expect(meterLevel(10 ** 9, -1)).toBe('unlimited');
  });
});

describe('status badge', () => {
  it('is default for active, destructive for cancelled and past_due, secondary for trialing and anything else (spec 4)', () => {
    expect(statusBadge('active')).toEqual({ tone: 'default', label: 'Active' });
    expect(statusBadge('cancelled')).toEqual({ tone: 'destructive', label: 'Cancelled' });
    expect(statusBadge('past_due')).toEqual({ tone: 'destructive', label: 'Past due' });
    expect(statusBadge('trialing')).toEqual({ tone: 'secondary', label: 'Trial' });
    expect(statusBadge('incomplete_expired')).toEqual({ tone: 'secondary', label: 'Incomplete expired' });
  });
});

describe('prices and dates', () => {
  it('writes USD prices per month or per year, and the yearly saving', () => {
    expect(formatPrice(PLANS.free, 'monthly')).toBe('$0');
    expect(formatPrice(PLANS.pro_monthly, 'monthly')).toBe('$19 / month');
    expect(formatPrice(PLANS.pro_monthly, 'yearly')).toBe(`$${PLANS.pro_monthly.yearlyPrice} / year`);
    expect(yearlySaving(PLANS.pro_monthly)).toBe(19 * 12 - PLANS.pro_monthly.yearlyPrice);
    expect(yearlySaving(PLANS.free)).toBe(0);
  });

  it('writes dates in full and counts the days left, rounded up', () => {
    expect(formatBillingDate('2026-12-10T12:00:00.000Z')).toBe('December 10, 2026');
    expect(formatBillingDate('not a date')).toBe('');
    expect(formatBillingDate(null)).toBe('');
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(daysUntil('2026-12-03T12:00:00Z', now)).toBe(7);
    expect(daysUntil('2026-11-26T13:00:00Z', now)).toBe(1);
    expect(daysUntil('2026-11-20T00:00:00Z', now)).toBe(0);
  });
});

describe('return from Checkout', () => {
  it('reads success with its session, or cancelled, from the address', () => {
    expect(readCheckoutReturn('?checkout=success&session_id=cs_test_123')).toEqual({ kind: 'success', sessionId: 'cs_test_123' });
    expect(readCheckoutReturn('?checkout=success')).toEqual({ kind: 'success', sessionId: null });
    expect(readCheckoutReturn('?checkout=cancelled')).toEqual({ kind: 'cancelled' });
    expect(readCheckoutReturn('')).toBeNull();
    expect(readCheckoutReturn('?checkout=maybe')).toBeNull();
  });

  it('counts the payment as landed only once the webhook fulfilled that very session', () => {
    expect(isCheckoutFulfilled(makeSubscription(), 'cs_1')).toBe(false);
    // A plan bought earlier is not this payment.
    expect(isCheckoutFulfilled(makeSubscription({ plan_id: 'pro_monthly', last_checkout_session_id: 'cs_0' }), 'cs_1')).toBe(false);
    expect(isCheckoutFulfilled(makeSubscription({ plan_id: 'pro_monthly', last_checkout_session_id: 'cs_1' }), 'cs_1')).toBe(true);
    // Without a session id only an active paid plan counts; a trial does not.
    expect(isCheckoutFulfilled(makeSubscription({ plan_id: 'pro_monthly', status: 'trialing' }), null)).toBe(false);
    expect(isCheckoutFulfilled(makeSubscription({ plan_id: 'pro_monthly', status: 'active' }), null)).toBe(true);
  });
});

describe('what each plan offers', () => {
  const order = ['free', 'pro_monthly', 'business_monthly'] as const;
  const offers = (s: TSubscription) => order.map((id) => planOffer(id, s, order));

  it('offers checkout for every paid plan above Free, and nothing for Free itself', () => {
    expect(offers(makeSubscription())).toEqual([null, 'checkout', 'checkout']);
  });

  it("offers keeping the trial's plan and going higher through checkout during the trial", () => {
    expect(offers(makeSubscription({ plan_id: 'pro_monthly', status: 'trialing', trial_available: false }))).toEqual([null, 'checkout', 'checkout']);
  });

  it('sends a paying creator to the billing portal for a higher plan, and offers nothing lower', () => {
    const paying = makeSubscription({ plan_id: 'pro_monthly', interval: 'monthly', has_billing_account: true, trial_available: false });
    expect(hasPaidSubscription(paying)).toBe(true);
    expect(offers(paying)).toEqual([null, null, 'portal']);
    expect(offers({ ...paying, plan_id: 'business_monthly' })).toEqual([null, null, null]);
    // A cancelled subscription is over: buying again is a new checkout.
    const ended = makeSubscription({ plan_id: 'free', status: 'cancelled', has_billing_account: true, trial_available: false });
    expect(hasPaidSubscription(ended)).toBe(false);
    expect(offers(ended)).toEqual([null, 'checkout', 'checkout']);
  });
});

describe('messages', () => {
  it("shows the server's error for a refused checkout, the spec's fallbacks otherwise", () => {
    expect(billingActionMessage(new ApiRequestError(BILLING_ERRORS.billing_not_configured.message, 503), 'Failed to create checkout session')).toBe(
      'Billing is not configured on this server',
    );
    expect(billingActionMessage(new ApiRequestError('Request failed (502)', 502), 'Failed to create checkout session')).toBe('Failed to create checkout session');
    expect(billingActionMessage(new ApiRequestError('Unexpected reply from the server', 502), 'x')).toBe('Invalid checkout data received');
    expect(billingActionMessage(new ApiRequestError('No connection', 0), 'x')).toBe('No connection. Check your network and try again.');
    expect(billingActionMessage(new TypeError('boom'), 'x')).toBe('Upgrade failed');
  });

  it("shows a refusal's own words when billing cannot load, else 'Failed to load billing data'", () => {
    expect(billingLoadMessage(new ApiRequestError('Authentication required', 401))).toBe('Authentication required');
    expect(billingLoadMessage(new ApiRequestError('Internal error', 500))).toBe('Failed to load billing data');
    expect(billingLoadMessage(new Error('x'))).toBe('Failed to load billing data');
  });

  it('knows a plan limit refusal by its code or by the words the server uses, and nothing else', () => {
    expect(planLimitOf(new ApiRequestError(BILLING_ERRORS.site_limit_reached.message, 403))).toBe('site_limit_reached');
    expect(planLimitOf(new UploadError(BILLING_ERRORS.storage_limit_reached.message, { status: 413 }))).toBe('storage_limit_reached');
    expect(planLimitOf(new UploadError(`${BILLING_ERRORS.delivery_too_large.message} (2 GB on Free).`, { status: 413 }))).toBe('delivery_too_large');
    expect(planLimitOf(Object.assign(new Error('whatever'), { code: 'pro_feature' }))).toBe('pro_feature');
    expect(planLimitOf(Object.assign(new Error(BILLING_ERRORS.pro_feature.message), { code: 'something_else' }))).toBeNull();
    expect(planLimitOf(new ApiRequestError('Upload failed', 500))).toBeNull();
    expect(planLimitOf('pro_feature')).toBeNull();
    expect(planLimitOf(BILLING_ERRORS.over_plan_limits.message)).toBe('over_plan_limits');
  });
});
