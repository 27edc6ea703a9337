/**
 * The signed-in creator's billing: their subscription as the dashboard shows it, usage against the
 * plan's limits, Stripe Checkout and the Customer Portal, and the one 14-day Pro trial. Nothing here
 * upgrades a plan after a payment: only the webhooks do (webhook.service.ts).
 */
import { CHECKOUT_RETURN, TRIAL_DAYS, TRIAL_PLAN_ID, withinLimit, type TCheckoutRequest, type TSubscription, type TUsageResponse } from '@dropsite/shared';
import type { TAppDeps } from '../deps.ts';
import type { TSignedInCreator } from '../access/principal.ts';
import { AppError } from '../http/app-error.ts';
import { ensureSubscriptionRow, findSubscriptionOfCreator, setStripeCustomer, startTrial, type TSubscriptionRow } from './billing.repository.ts';
import { billingError } from './billing-error.ts';
import { deliveryLimitOf, effectivePlanId, planOf } from './plan-of.ts';
import { readUsage } from './usage.service.ts';
import { usagePeriodOf } from './usage-period.ts';

type TDeps = Pick<TAppDeps, 'db' | 'config' | 'clock' | 'log' | 'stripe' | 'storage'>;

const DAY_MS = 86_400_000;
/** Repeated clicks within this window reuse one Checkout Session (the idempotency key's time bucket). */
const CHECKOUT_IDEMPOTENCY_WINDOW_MS = 60_000;

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** A Stripe subscription that still bills or may bill (a new checkout would charge twice). */
function hasLiveStripeSubscription(row: TSubscriptionRow | undefined): boolean {
  return row?.stripe_subscription_id != null && row.status !== 'cancelled';
}

export function subscriptionView(row: TSubscriptionRow | undefined, now: number, defaultPlan: TSubscription['plan_id']): TSubscription {
  const planId = effectivePlanId(row, now, defaultPlan);
  const onPaidPlan = row !== undefined && row.plan_id !== 'free' && planId === row.plan_id;
  // The product's own trial ended without a purchase: the creator is simply on the default plan again.
  const trialEnded = row?.status === 'trialing' && !onPaidPlan;
  return {
    plan_id: planId,
    status: !row || trialEnded ? 'active' : row.status,
    current_period_end: onPaidPlan ? isoOrNull(row.current_period_end) : null,
    interval: onPaidPlan && row.status !== 'trialing' ? row.billing_interval : null,
    cancel_at_period_end: onPaidPlan && row.cancel_at_period_end === 1,
    trial_end: onPaidPlan && row.status === 'trialing' ? isoOrNull(row.trial_end) : null,
    grace_period_end: row?.status === 'past_due' ? isoOrNull(row.grace_period_end) : null,
    trial_available: !row || (row.trial_used_at === null && row.stripe_subscription_id === null),
    has_billing_account: row?.stripe_customer_id != null,
    last_checkout_session_id: row?.last_checkout_session_id ?? null,
  };
}

export async function describeSubscription(deps: TDeps, creatorId: string): Promise<TSubscription> {
  return subscriptionView(await findSubscriptionOfCreator(deps.db, creatorId), deps.clock.now(), deps.config.billing.defaultPlan);
}

export async function describeUsage(deps: TDeps, creatorId: string): Promise<Omit<TUsageResponse, 'success'>> {
  const now = deps.clock.now();
  const [row, usage] = await Promise.all([findSubscriptionOfCreator(deps.db, creatorId), readUsage(deps, creatorId)]);
  const plan = planOf(effectivePlanId(row, now, deps.config.billing.defaultPlan));
  return {
    plan_id: plan.id,
    period: usagePeriodOf(now),
    currentUsage: {
      storage_used: usage.storageUsed,
      projects_count: usage.projects,
      collaborators_count: usage.collaborators,
      api_requests_count: usage.apiRequests,
    },
    limits: { ...plan.limits, delivery_size: deliveryLimitOf(plan, deps.config.maxUploadBytes) },
    over_limit: !withinLimit(plan.limits.storage, usage.storageUsed) || !withinLimit(plan.limits.projects, usage.projects),
  };
}

/** The creator's one Stripe customer, made on first checkout (an idempotency key per creator: a retry makes none twice). */
async function customerOf(deps: TDeps, creator: TSignedInCreator, row: TSubscriptionRow): Promise<string> {
  const stripe = deps.stripe;
  if (!stripe) throw billingError('billing_not_configured');
  if (row.stripe_customer_id) return row.stripe_customer_id;
  const customer = await stripe.customers.create(
    { email: creator.email, name: creator.name, metadata: { creator_id: creator.id } },
    { idempotencyKey: `dropsite-customer-${creator.id}` },
  );
  return setStripeCustomer(deps.db, creator.id, customer.id, deps.clock.now());
}

/** A Stripe Checkout Session (subscription mode) for the plan and interval; answers its URL. */
export async function createCheckout(deps: TDeps, creator: TSignedInCreator, input: TCheckoutRequest): Promise<string> {
  const stripe = deps.stripe;
  const config = deps.config.billing.stripe;
  if (!stripe || !config) throw billingError('billing_not_configured');
  const price = config.prices[input.planId]?.[input.interval];
  if (!price) throw new AppError('validation_failed', `${planOf(input.planId).name} is not sold ${input.interval} on this server`);
  const now = deps.clock.now();
  const row = await ensureSubscriptionRow(deps.db, creator.id, now);
  if (hasLiveStripeSubscription(row)) throw billingError('already_subscribed');
  const billingUrl = `${deps.config.publicUrl}/billing`;
  try {
    const customer = await customerOf(deps, creator, row);
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer,
        client_reference_id: creator.id,
        line_items: [{ price, quantity: 1 }],
        success_url: `${billingUrl}?${CHECKOUT_RETURN.param}=${CHECKOUT_RETURN.success}&${CHECKOUT_RETURN.sessionParam}={CHECKOUT_SESSION_ID}`,
        cancel_url: `${billingUrl}?${CHECKOUT_RETURN.param}=${CHECKOUT_RETURN.cancelled}`,
        metadata: { creator_id: creator.id },
        subscription_data: { metadata: { creator_id: creator.id } },
      },
      { idempotencyKey: `dropsite-checkout-${creator.id}-${price}-${Math.floor(now / CHECKOUT_IDEMPOTENCY_WINDOW_MS)}` },
    );
    if (!session.url) throw new Error('Checkout Session without a URL');
    return session.url;
  } catch (cause) {
    if (cause instanceof AppError) throw cause;
    deps.log.error({ err: cause, creatorId: creator.id }, 'Stripe checkout failed');
    throw billingError('checkout_failed', { cause });
  }
}

/** A Customer Portal session (card, invoices, cancellation); answers its URL. */
export async function createPortal(deps: TDeps, creator: TSignedInCreator): Promise<string> {
  const stripe = deps.stripe;
  if (!stripe || !deps.config.billing.stripe) throw billingError('billing_not_configured');
  const row = await findSubscriptionOfCreator(deps.db, creator.id);
  if (!row?.stripe_customer_id) throw billingError('no_billing_account');
  try {
    const session = await stripe.billingPortal.sessions.create({ customer: row.stripe_customer_id, return_url: `${deps.config.publicUrl}/billing` });
    return session.url;
  } catch (cause) {
    deps.log.error({ err: cause, creatorId: creator.id }, 'Stripe portal failed');
    throw billingError('portal_failed', { cause });
  }
}

/** Starts the creator's one trial: TRIAL_DAYS of Pro, no card (works without Stripe keys too). */
export async function startCreatorTrial(deps: TDeps, creatorId: string): Promise<TSubscription> {
  const now = deps.clock.now();
  await ensureSubscriptionRow(deps.db, creatorId, now);
  const started = await startTrial(deps.db, creatorId, { planId: TRIAL_PLAN_ID, now, trialEnd: now + TRIAL_DAYS * DAY_MS });
  if (!started) throw billingError('trial_used');
  return describeSubscription(deps, creatorId);
}
