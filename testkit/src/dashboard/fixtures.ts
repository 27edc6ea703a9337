/** Values the dashboard's tests start from: a new site's settings and an account's subscription. */
import type { TSiteSettings, TSubscription } from '@dropsite/shared';

/** A new site's settings, written out: analytics on, every other feature off, no notification address or webhook. */
export const NEW_SITE_SETTINGS: TSiteSettings = {
  enableFavorites: false,
  enableComments: false,
  enableApprovals: false,
  enableAnalytics: true,
  enableNotifications: false,
  notificationEmail: '',
  slackWebhook: '',
};

/** The subscription of an account on the free plan that never paid nor had a trial, with `overrides` over it. */
export function makeSubscription(overrides: Partial<TSubscription> = {}): TSubscription {
  return {
    plan_id: 'free',
    status: 'active',
    current_period_end: null,
    interval: null,
    cancel_at_period_end: false,
    trial_end: null,
    grace_period_end: null,
    trial_available: true,
    has_billing_account: false,
    last_checkout_session_id: null,
    ...overrides,
  };
}
