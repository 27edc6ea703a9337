/**
 * Billing's calls (issue 13; spec 'pages-dashboard-billing' 2 'Billing dashboard', 3 'Subscription'
 * and 'Usage', 4, 7.5-7.7, 8 and 9; decisions 6: Stripe Checkout, webhooks and the Customer Portal
 * instead of the spec's card provider). The server shapes its answers with these; the dashboard
 * parses them. The plan catalogue itself is plans.ts.
 *
 * Fulfilment follows Stripe's signed webhooks only: the browser's return from Checkout
 * (`/billing?checkout=success&session_id=…`) upgrades nothing; the page waits until
 * `GET /api/billing/subscription` names that session in `last_checkout_session_id`.
 */
import { z } from 'zod';
import { ZLimitSchema, ZPlanLimitsSchema, ZUsageSchema } from './plan-limits.ts';
import { BILLING_INTERVALS, PAID_PLAN_IDS, PLAN_IDS } from './plans.ts';

const success = { success: z.literal(true) };
const ZCountSchema = z.number().int().nonnegative();
const ZIsoSchema = z.string();

export const ZPlanIdSchema = z.enum(PLAN_IDS);
export const ZPaidPlanIdSchema = z.enum(PAID_PLAN_IDS);
export const ZBillingIntervalSchema = z.enum(BILLING_INTERVALS);

/** Spec 4. Badge: default for active, destructive for cancelled and past_due, secondary for trialing. */
export const SUBSCRIPTION_STATUSES = ['active', 'cancelled', 'past_due', 'trialing'] as const;
export const ZSubscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export type TSubscriptionStatus = z.infer<typeof ZSubscriptionStatusSchema>;

// ---- GET /api/billing/subscription (spec 7.5; `?userEmail=` accepted and ignored: the session is the identity)

export const ZSubscriptionSchema = z.object({
  /** The plan whose limits and features apply now (Free once a cancelled plan's period ended or a grace period ran out). */
  plan_id: ZPlanIdSchema,
  status: ZSubscriptionStatusSchema,
  /** Renewal date (or end date when `cancel_at_period_end`, or the trial's end); null on Free. */
  current_period_end: ZIsoSchema.nullable(),
  /** How the paid plan is billed; null on Free and during the trial. */
  interval: ZBillingIntervalSchema.nullable(),
  /** Cancelled in the portal: the plan stays until `current_period_end`, then Free. */
  cancel_at_period_end: z.boolean(),
  /** When the trial ends (status trialing), else null. */
  trial_end: ZIsoSchema.nullable(),
  /** past_due: the paid plan's limits hold until then, Free's after; null otherwise. */
  grace_period_end: ZIsoSchema.nullable(),
  /** The creator has never had a trial and has no paid plan: the dashboard may offer one. */
  trial_available: z.boolean(),
  /** A Stripe customer exists: the portal (card, invoices, cancellation) can open. */
  has_billing_account: z.boolean(),
  /** The Checkout Session whose payment the webhooks last fulfilled, so the return page knows its payment landed. */
  last_checkout_session_id: z.string().nullable(),
});
export type TSubscription = z.infer<typeof ZSubscriptionSchema>;

export const ZSubscriptionResponseSchema = z.object({
  ...success,
  subscription: ZSubscriptionSchema,
  /** False without Stripe keys: plans are shown, checkout and portal answer 503 billing_not_configured. */
  billing_configured: z.boolean(),
});
export type TSubscriptionResponse = z.infer<typeof ZSubscriptionResponseSchema>;

// ---- GET /api/billing/usage (spec 7.6)

/** A plan's limits (plan-limits.ts) and its largest single delivery in bytes. */
export const ZUsageLimitsSchema = ZPlanLimitsSchema.extend({ delivery_size: ZLimitSchema });
export type TUsageLimits = z.infer<typeof ZUsageLimitsSchema>;

export const ZUsageResponseSchema = z.object({
  ...success,
  currentUsage: ZUsageSchema,
  /** The limits of `plan_id` (the plan that applies now). */
  limits: ZUsageLimitsSchema,
  plan_id: ZPlanIdSchema,
  /** 'YYYY-MM': the month `api_requests_count` counts. */
  period: z.string(),
  /**
   * Over storage or active sites (after a downgrade, a cancellation or a lapsed payment): nothing is
   * deleted and every site stays live, but changes to sites and new uploads are refused until the
   * creator upgrades or deletes enough.
   */
  over_limit: z.boolean(),
});
export type TUsageResponse = z.infer<typeof ZUsageResponseSchema>;

// ---- POST /api/billing/checkout (spec 7.7, on Stripe Checkout)

export const ZCheckoutRequestSchema = z.strictObject({
  planId: ZPaidPlanIdSchema,
  interval: ZBillingIntervalSchema,
});
export type TCheckoutRequest = z.infer<typeof ZCheckoutRequestSchema>;

/** Where to send the browser: Stripe Checkout's page. */
export const ZBillingRedirectResponseSchema = z.object({ ...success, url: z.string() });
export type TBillingRedirectResponse = z.infer<typeof ZBillingRedirectResponseSchema>;

/** The query `/billing` is opened with on the way back from Checkout. */
export const CHECKOUT_RETURN = { param: 'checkout', success: 'success', cancelled: 'cancelled', sessionParam: 'session_id' } as const;

// ---- POST /api/billing/portal: same answer as checkout, the Customer Portal's URL

// ---- POST /api/billing/trial: once per creator, TRIAL_DAYS of TRIAL_PLAN_ID without a card

export const ZTrialResponseSchema = z.object({ ...success, subscription: ZSubscriptionSchema });
export type TTrialResponse = z.infer<typeof ZTrialResponseSchema>;

// ---- Errors: errors.ts has the catalogue (code, status, message). Every error answer is { success: false, error, code }.

/** Limit errors carry what was refused, so the upgrade prompt can say it. */
export const ZLimitErrorDetailsSchema = z.object({
  plan_id: ZPlanIdSchema,
  limit: ZLimitSchema,
  used: ZCountSchema,
  requested: ZCountSchema,
});

/** What the billing dashboard shows (spec 8). */
export const BILLING_UI_MESSAGES = {
  loadFailed: 'Failed to load billing data',
  checkoutFailed: 'Failed to create checkout session',
  upgradeFailed: 'Upgrade failed',
  paymentSucceeded: 'Payment successful! Your subscription has been activated.',
} as const;
