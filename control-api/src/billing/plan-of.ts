/**
 * Which plan's limits apply to a creator now, from their subscription row (pure; no I/O). Without
 * a paid plan or a running trial it is the configured default plan (DEFAULT_PLAN, free unless set).
 */
import { type TPlan, type TPlanId, PLANS, isPlanId } from '@dropsite/shared';
import type { TSubscriptionRow } from './billing.repository.ts';

export type TPlanRow = Pick<TSubscriptionRow, 'plan_id' | 'status' | 'trial_end' | 'grace_period_end' | 'stripe_subscription_id'>;

export function effectivePlanId(row: TPlanRow | undefined, now: number, defaultPlan: TPlanId): TPlanId {
  if (!row || !isPlanId(row.plan_id) || row.plan_id === 'free') return defaultPlan;
  switch (row.status) {
    case 'active':
      return row.plan_id;
    case 'trialing':
      // A Stripe trial ends by its webhooks; the product's own trial (no Stripe subscription) by its date.
      return row.stripe_subscription_id !== null || (row.trial_end !== null && row.trial_end > now) ? row.plan_id : defaultPlan;
    case 'past_due':
      return row.grace_period_end !== null && row.grace_period_end > now ? row.plan_id : defaultPlan;
    default:
      return defaultPlan;
  }
}

/** A paid plan's delivery size, capped by MAX_UPLOAD_BYTES when the operator set one. */
export function deliveryLimitOf(plan: TPlan, cap: number | undefined): number {
  return cap === undefined ? plan.maxDeliveryBytes : Math.min(plan.maxDeliveryBytes, cap);
}

export function planOf(id: TPlanId): TPlan {
  return PLANS[id];
}
