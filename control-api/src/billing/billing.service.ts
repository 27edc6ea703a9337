/**
 * The signed-in creator's billing: their subscription as the dashboard shows it, usage against the
 * plan's limits, Stripe Checkout and the Customer Portal, and the one 14-day Pro trial. Nothing here
 * upgrades a plan after a payment: only the webhooks do (webhook.service.ts).
 */
import { createHash } from 'node:crypto';
import {
  APP_PATHS,
  CHECKOUT_RETURN,
  TRIAL_ADDRESS_WINDOW_DAYS,
  TRIAL_DAYS,
  TRIAL_PLAN_ID,
  withinLimit,
  type TCheckoutRequest,
  type TSubscription,
  type TUsageResponse,
} from '@dropsite/shared';
import type { TBillingDeps } from './billing.deps.ts';
import type { TSignedInCreator } from '../access/principal.ts';
import { AppError } from '../http/app-error.ts';
import {
  ensureSubscriptionRow,
  findSubscriptionOfCreator,
  isCreatorEmailConfirmed,
  setOpenCheckoutSession,
  setStripeCustomer,
  startTrial,
  takeTrialAddressSlot,
  type TSubscriptionRow,
} from './billing.repository.ts';
import { billingError } from './billing-error.ts';
import { deliveryLimitOf, effectivePlanId, planOf } from './plan-of.ts';
import { readUsage } from './usage.service.ts';
import { usagePeriodOf } from './usage-period.ts';
import { DAY_MS } from '../clock.ts';

type TDeps = Pick<TBillingDeps, 'db' | 'config' | 'clock' | 'log' | 'stripe' | 'storage'>;

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
    currentUsage: usage,
    limits: { ...plan.limits, delivery_size: deliveryLimitOf(plan, deps.config.maxUploadBytes) },
    over_limit: !withinLimit(plan.limits.storage, usage.storage_used) || !withinLimit(plan.limits.projects, usage.projects_count),
  };
}

/** The workspace's one Stripe customer, made on its first checkout (an idempotency key per workspace: a retry makes none twice). */
async function customerOf(deps: TDeps, creator: TSignedInCreator, workspaceId: string, row: TSubscriptionRow): Promise<string> {
  const stripe = deps.stripe;
  if (!stripe) throw billingError('billing_not_configured');
  if (row.stripe_customer_id) return row.stripe_customer_id;
  const customer = await stripe.customers.create(
    { email: creator.email, name: creator.name, metadata: { workspace_id: workspaceId, creator_id: creator.id } },
    { idempotencyKey: `dropsite-customer-${workspaceId}` },
  );
  return setStripeCustomer(deps.db, workspaceId, customer.id, deps.clock.now());
}

/** Stripe subscription statuses that bill or will bill again: a new checkout beside one would charge twice. */
const LIVE_STRIPE_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due', 'unpaid', 'paused']);
/** Stripe subscription statuses that are over for good: everything else is cancelled with a deleted account. */
const ENDED_STRIPE_STATUSES: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

function isStripeNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'statusCode' in err && err.statusCode === 404;
}

/**
 * A Stripe Checkout Session (subscription mode) for the plan and interval; answers its URL. One
 * session at a time: the one still open for the same price is continued (its URL again), one for
 * another price is expired first, and a creator with a paid subscription (in our rows, or at
 * Stripe before its webhooks land) or a paid session is sent to the portal instead (409), so no two
 * sessions can both be paid.
 */
export async function createCheckout(deps: TDeps, creator: TSignedInCreator, workspaceId: string, input: TCheckoutRequest): Promise<string> {
  const stripe = deps.stripe;
  const config = deps.config.billing.stripe;
  if (!stripe || !config) throw billingError('billing_not_configured');
  const price = config.prices[input.planId]?.[input.interval];
  if (!price) throw new AppError('validation_failed', `${planOf(input.planId).name} is not sold ${input.interval} on this server`);
  const now = deps.clock.now();
  const row = await ensureSubscriptionRow(deps.db, workspaceId, now);
  if (hasLiveStripeSubscription(row)) throw billingError('already_subscribed');
  const billingUrl = `${deps.config.publicUrl}${APP_PATHS.billing}`;
  const open = row.open_checkout_session_id;
  try {
    const customer = await customerOf(deps, creator, workspaceId, row);
    const known = await stripe.subscriptions.list({ customer, status: 'all', limit: 20 });
    if (known.data.some((subscription) => LIVE_STRIPE_STATUSES.has(subscription.status))) throw billingError('already_subscribed');
    // A session Stripe no longer knows (e.g. other API keys since) is simply gone.
    const previous = open ? await stripe.checkout.sessions.retrieve(open).catch((err: unknown) => (isStripeNotFound(err) ? undefined : Promise.reject(err))) : undefined;
    if (open && previous) {
      // Paid, and its webhook not applied yet: the plan is on its way.
      if (previous.status === 'complete' && row.last_checkout_session_id !== open) throw billingError('already_subscribed');
      if (previous.status === 'open') {
        if (row.open_checkout_price === price && previous.url) return previous.url;
        await stripe.checkout.sessions.expire(open, {}, { idempotencyKey: `dropsite-checkout-expire-${open}` });
      }
    }
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer,
        client_reference_id: workspaceId,
        line_items: [{ price, quantity: 1 }],
        success_url: `${billingUrl}?${CHECKOUT_RETURN.param}=${CHECKOUT_RETURN.success}&${CHECKOUT_RETURN.sessionParam}={CHECKOUT_SESSION_ID}`,
        cancel_url: `${billingUrl}?${CHECKOUT_RETURN.param}=${CHECKOUT_RETURN.cancelled}`,
        metadata: { workspace_id: workspaceId, creator_id: creator.id },
        subscription_data: { metadata: { workspace_id: workspaceId, creator_id: creator.id } },
      },
      // Two clicks at once send the same key and get the same session; the next one follows the session it replaces.
      { idempotencyKey: `dropsite-checkout-${workspaceId}-${price}-${open ?? row.last_checkout_session_id ?? 'first'}` },
    );
    if (!session.url) throw new Error('Checkout Session without a URL');
    if (!(await setOpenCheckoutSession(deps.db, workspaceId, { expected: open, sessionId: session.id, price, now }))) {
      const current = await findSubscriptionOfCreator(deps.db, workspaceId);
      if (current?.open_checkout_session_id !== session.id) {
        // Another checkout of this creator (another plan) was opened meanwhile: this one is never paid.
        await stripe.checkout.sessions.expire(session.id, {}, { idempotencyKey: `dropsite-checkout-expire-${session.id}` });
        throw new AppError('conflict', 'Another checkout was opened a moment ago. Reload the page and choose your plan again.');
      }
    }
    return session.url;
  } catch (cause) {
    if (cause instanceof AppError) throw cause;
    deps.log.error({ err: cause, creatorId: creator.id }, 'Stripe checkout failed');
    throw billingError('checkout_failed', { cause });
  }
}

/** A Customer Portal session (card, invoices, cancellation); answers its URL. */
export async function createPortal(deps: TDeps, creator: TSignedInCreator, workspaceId: string): Promise<string> {
  const stripe = deps.stripe;
  if (!stripe || !deps.config.billing.stripe) throw billingError('billing_not_configured');
  const row = await findSubscriptionOfCreator(deps.db, workspaceId);
  if (!row?.stripe_customer_id) throw billingError('no_billing_account');
  try {
    const session = await stripe.billingPortal.sessions.create({ customer: row.stripe_customer_id, return_url: `${deps.config.publicUrl}${APP_PATHS.billing}` });
    return session.url;
  } catch (cause) {
    deps.log.error({ err: cause, creatorId: creator.id }, 'Stripe portal failed');
    throw billingError('portal_failed', { cause });
  }
}

/** The key a client address's trials are counted under: a hash, so the table holds no address. */
function trialAddressHash(address: string): string {
  return createHash('sha256').update(`dropsite-trial-address:${address}`).digest('base64url');
}

/**
 * Starts the creator's one trial: TRIAL_DAYS of Pro, no card (works without Stripe keys too). Only
 * for a confirmed email address (403), and TRIALS_PER_ADDRESS per client address in
 * TRIAL_ADDRESS_WINDOW_DAYS (429), counted in the database: throwaway sign-ups get no run of trials.
 */
export async function startCreatorTrial(deps: TDeps, creatorId: string, workspaceId: string, clientAddress: string): Promise<TSubscription> {
  const isConfirmed = await isCreatorEmailConfirmed(deps.db, creatorId);
  // The session's join found the creator a moment ago; gone now means deleted meanwhile.
  if (isConfirmed === undefined) throw new AppError('unauthorized', 'Authentication required. Please sign in and try again.');
  if (!isConfirmed) throw billingError('trial_needs_confirmed_email');
  const now = deps.clock.now();
  await ensureSubscriptionRow(deps.db, workspaceId, now);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await startTrial(trx, workspaceId, { planId: TRIAL_PLAN_ID, now, trialEnd: now + TRIAL_DAYS * DAY_MS }))) throw billingError('trial_used');
    const slot = { addressHash: trialAddressHash(clientAddress), limit: deps.config.billing.trialsPerAddress, now, freeBefore: now - TRIAL_ADDRESS_WINDOW_DAYS * DAY_MS };
    if (!(await takeTrialAddressSlot(trx, slot))) throw billingError('trial_address_limit');
  });
  return describeSubscription(deps, workspaceId);
}

/**
 * Before an account is deleted: its Stripe subscriptions are cancelled at once (no further charge)
 * and an open Checkout Session is expired (it can no longer be paid). When Stripe cannot be reached
 * (or billing is off while a paid plan runs) it throws billing_unreachable (503) and the account
 * must stay: nothing of it has been deleted yet.
 */
export async function cancelBillingOfDeletedAccount(deps: Pick<TBillingDeps, 'db' | 'log' | 'stripe'>, creatorId: string): Promise<void> {
  const row = await findSubscriptionOfCreator(deps.db, creatorId);
  if (!row?.stripe_customer_id) return;
  const stripe = deps.stripe;
  if (!stripe) {
    if (hasLiveStripeSubscription(row)) throw billingError('billing_unreachable');
    return;
  }
  try {
    const subscriptions = await stripe.subscriptions.list({ customer: row.stripe_customer_id, status: 'all', limit: 100 });
    for (const subscription of subscriptions.data) {
      if (ENDED_STRIPE_STATUSES.has(subscription.status)) continue;
      await stripe.subscriptions.cancel(subscription.id, {}, { idempotencyKey: `dropsite-account-deleted-${subscription.id}` });
    }
    if (row.open_checkout_session_id) {
      const session = await stripe.checkout.sessions.retrieve(row.open_checkout_session_id);
      if (session.status === 'open') await stripe.checkout.sessions.expire(session.id, {}, { idempotencyKey: `dropsite-checkout-expire-${session.id}` });
    }
  } catch (cause) {
    deps.log.error({ err: cause, creatorId }, 'cancelling the Stripe subscription of a deleted account failed');
    throw billingError('billing_unreachable', { cause });
  }
  deps.log.info({ creatorId, customerId: row.stripe_customer_id }, 'Stripe subscription of a deleted account cancelled');
}
