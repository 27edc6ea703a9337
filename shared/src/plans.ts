/**
 * The billing catalogue (companion spec, section 9): the one list of plans the pricing section,
 * the FAQ, the payment page, the billing dashboard and the server's limit checks all read.
 * -1 means unlimited. The ids are the spec's; each paid plan is sold monthly or yearly (the
 * interval is chosen at checkout; Stripe price ids come from the server's configuration).
 */
import type { TPlanLimitKey, TPlanLimits } from './plan-limits.ts';

export const PLAN_IDS = ['free', 'pro_monthly', 'business_monthly'] as const;
export type TPlanId = (typeof PLAN_IDS)[number];
/** The plans a creator can buy. */
export const PAID_PLAN_IDS = ['pro_monthly', 'business_monthly'] as const;
export type TPaidPlanId = (typeof PAID_PLAN_IDS)[number];
export const BILLING_INTERVALS = ['monthly', 'yearly'] as const;
export type TBillingInterval = (typeof BILLING_INTERVALS)[number];

/** The Pro trial: once per creator, this many days of the plan below (spec 9: 'trial 14 days'). */
export const TRIAL_DAYS = 14;
export const TRIAL_PLAN_ID: TPaidPlanId = 'pro_monthly';
/** The window the per-address trial count covers (TRIALS_PER_ADDRESS trials from one address in this many days). */
export const TRIAL_ADDRESS_WINDOW_DAYS = 30;
/** After a failed renewal (past_due) the paid plan's limits hold this many days, then Free's apply until a payment succeeds. */
export const PAYMENT_GRACE_DAYS = 7;
/** What the spec's 'unlimited' is written as. */
export const UNLIMITED = -1;

/** The features a signed-in creator needs a paid plan for (anonymous sites keep them in their 7-day window). */
export const PRO_FEATURES = ['comments', 'approvals', 'notifications'] as const;
export type TProFeature = (typeof PRO_FEATURES)[number];
/* The site setting each turns on is its row's `feature` in the site settings catalogue (site-settings-catalogue.ts). */
/**
 * What a line of a plan's list sells, so the list answers to what the server does:
 * - `every_plan`: what every plan has, Free included (listed once, on Free);
 * - `includes`: 'Everything in Free': the named lower plan's list;
 * - `limit`: one of the plan's own figures (its limits or its delivery size), quoted in the label;
 * - `pro_features`: switches the server refuses to a signed-in creator whose plan has `proFeatures` off;
 * - `audit_log`: how long the workspace's audit log keeps an event (`auditLogDays`), quoted in the label.
 */
export type TPlanFeatureSells =
  | { kind: 'every_plan' }
  | { kind: 'includes'; plan: TPlanId }
  | { kind: 'limit'; limit: TPlanLimitKey | 'delivery' }
  | { kind: 'pro_features'; features: readonly TProFeature[] }
  | { kind: 'audit_log' };

/**
 * One line of a plan's list. `comingSoon`: not built yet; shown marked 'Coming soon' and never a
 * reason to buy. Every other line is what the product does today, and says how (`sells`).
 */
export type TPlanFeature = { label: string; comingSoon: true } | { label: string; comingSoon?: undefined; sells: TPlanFeatureSells };

export interface TPlan {
  id: TPlanId;
  name: string;
  /** Per month when paid monthly (the price the pricing section shows). */
  price: number;
  /** Per year when paid yearly: two months free. */
  yearlyPrice: number;
  currency: 'USD';
  /** One line: who the plan is for. */
  summary: string;
  features: readonly TPlanFeature[];
  limits: TPlanLimits;
  /** Largest single delivery (sum of its files) in bytes: the per-delivery size limit. */
  maxDeliveryBytes: number;
  /** Comments, approvals and notifications (PRO_FEATURES) for a signed-in creator's sites. */
  proFeatures: boolean;
  /** Days the workspace's audit log keeps an event. */
  auditLogDays: number;
}

const GB = 1024 ** 3;

export const PLANS: Record<TPlanId, TPlan> = {
  free: {
    id: 'free',
    name: 'Free',
    price: 0,
    yearlyPrice: 0,
    currency: 'USD',
    summary: 'For trying Dropsite with real clients.',
    features: [
      { label: 'Basic file delivery: a link, a QR code and a viewer for every file', sells: { kind: 'every_plan' } },
      { label: '5 GB storage', sells: { kind: 'limit', limit: 'storage' } },
      { label: 'Up to 3 active sites', sells: { kind: 'limit', limit: 'projects' } },
      { label: 'Deliveries up to 2 GB', sells: { kind: 'limit', limit: 'delivery' } },
      { label: 'Powered by Dropsite on your sites', sells: { kind: 'every_plan' } },
      { label: 'Analytics: views, visitors and downloads, daily charts, CSV export', sells: { kind: 'every_plan' } },
      { label: 'Client favourites', sells: { kind: 'every_plan' } },
      { label: 'Replace files under the same link', sells: { kind: 'every_plan' } },
      { label: 'Password protection and expiry dates', sells: { kind: 'every_plan' } },
    ],
    limits: { storage: 5_368_709_120, projects: 3, collaborators: 1, api_requests: 0 },
    maxDeliveryBytes: 2 * GB,
    proFeatures: false,
    auditLogDays: 30,
  },
  pro_monthly: {
    id: 'pro_monthly',
    name: 'Pro',
    price: 19,
    yearlyPrice: 190,
    currency: 'USD',
    summary: 'For working photographers and designers.',
    features: [
      { label: 'Everything in Free', sells: { kind: 'includes', plan: 'free' } },
      { label: '100 GB storage', sells: { kind: 'limit', limit: 'storage' } },
      { label: 'Unlimited active sites', sells: { kind: 'limit', limit: 'projects' } },
      { label: 'Deliveries up to 25 GB', sells: { kind: 'limit', limit: 'delivery' } },
      { label: 'Comments & feedback', sells: { kind: 'pro_features', features: ['comments'] } },
      { label: 'Client approvals and change requests', sells: { kind: 'pro_features', features: ['approvals'] } },
      { label: 'Email notifications', sells: { kind: 'pro_features', features: ['notifications'] } },
      { label: 'Custom branding', comingSoon: true },
    ],
    limits: { storage: 100 * GB, projects: -1, collaborators: 1, api_requests: 1000 },
    maxDeliveryBytes: 25 * GB,
    proFeatures: true,
    auditLogDays: 90,
  },
  business_monthly: {
    id: 'business_monthly',
    name: 'Business',
    price: 49,
    yearlyPrice: 490,
    currency: 'USD',
    summary: 'For studios and agencies that deliver as a team.',
    features: [
      { label: 'Everything in Pro', sells: { kind: 'includes', plan: 'pro_monthly' } },
      { label: 'Unlimited storage', sells: { kind: 'limit', limit: 'storage' } },
      { label: 'Deliveries up to 100 GB', sells: { kind: 'limit', limit: 'delivery' } },
      { label: 'Multi-user access: Unlimited members, each an owner, admin, editor or viewer', sells: { kind: 'limit', limit: 'collaborators' } },
      { label: 'Audit log of every change, kept a year', sells: { kind: 'audit_log' } },
      { label: 'Custom domain', comingSoon: true },
      { label: 'API access', comingSoon: true },
      { label: 'CRM integrations', comingSoon: true },
    ],
    limits: { storage: -1, projects: -1, collaborators: -1, api_requests: -1 },
    maxDeliveryBytes: 100 * GB,
    proFeatures: true,
    auditLogDays: 365,
  },
};

export function isPlanId(value: string): value is TPlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

/** Whether `used + adding` stays within `limit` (-1: always). Exactly at the limit is within it. */
export function withinLimit(limit: number, used: number, adding = 0): boolean {
  return limit === UNLIMITED || used + adding <= limit;
}
