/**
 * Stripe's webhooks, the only way a plan changes after a payment (security checklist, Stripe):
 * - the signature is checked over the raw body, within the tolerance window (400 otherwise), and
 *   neither its timestamp nor the event's `created` may lie ahead of our clock by more than
 *   FUTURE_SKEW_MS (400): a date in the future would outrank every real event in the ordering below;
 * - each event is applied once: its id goes into billing_events in the same transaction as its
 *   effect, so a redelivery or a concurrent duplicate applies nothing;
 * - order is not trusted: a subscription row takes only events not older than the newest applied
 *   (`last_event_at`), and a Stripe subscription once cancelled is never revived by a late event;
 * - a database failure throws, so the answer is 5xx and Stripe retries.
 */
import { isPlanId, PAYMENT_GRACE_DAYS, PLANS, type TBillingInterval, type TPaidPlanId } from '@dropsite/shared';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import type { TBillingDeps } from './billing.deps.ts';
import type { TStripeConfig } from '../config/config.ts';
import { AppError } from '../http/app-error.ts';
import {
  applySubscriptionChange,
  clearOpenCheckoutSession,
  ensureSubscriptionRow,
  findSubscriptionByCustomer,
  isBillingEventRecorded,
  recordBillingEvent,
  setLastCheckoutSession,
  setStripeCustomer,
  type TSubscriptionChange,
  type TSubscriptionRow,
} from './billing.repository.ts';
import { billingError } from './billing-error.ts';
import { DAY_MS } from '../clock.ts';
import type { Database } from '../db/tables.ts';
import { recordAuditEvent } from '../workspaces/audit-log.repository.ts';

type TDeps = Pick<TBillingDeps, 'db' | 'config' | 'clock' | 'stripe'>;

/** How far ahead of our clock Stripe's clock may be. */
const FUTURE_SKEW_MS = 60_000;

/** A Stripe id, whether the object came expanded or not. */
const ZStripeRefSchema = z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)]);

const ZEventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  created: z.number().int().nonnegative(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
type TEvent = z.infer<typeof ZEventSchema>;

const ZSubscriptionObjectSchema = z.object({
  id: z.string(),
  customer: ZStripeRefSchema,
  status: z.string(),
  cancel_at_period_end: z.boolean().nullish(),
  trial_end: z.number().nullish(),
  /** API versions before 2025-03 kept the period on the subscription; later ones on each item. */
  current_period_end: z.number().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  items: z.object({ data: z.array(z.object({ price: z.object({ id: z.string() }), current_period_end: z.number().nullish() })) }).nullish(),
});
type TSubscriptionObject = z.infer<typeof ZSubscriptionObjectSchema>;

const ZCheckoutSessionObjectSchema = z.object({
  id: z.string(),
  customer: ZStripeRefSchema.nullish(),
  subscription: ZStripeRefSchema.nullish(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});

const ZInvoiceObjectSchema = z.object({
  id: z.string(),
  customer: ZStripeRefSchema.nullish(),
  /** Before API 2025-03 the invoice named its subscription here; later under parent.subscription_details. */
  subscription: ZStripeRefSchema.nullish(),
  parent: z.object({ subscription_details: z.object({ subscription: ZStripeRefSchema.nullish() }).nullish() }).nullish(),
  lines: z.object({ data: z.array(z.object({ period: z.object({ end: z.number() }).nullish() })) }).nullish(),
});

export type TWebhookOutcome = 'applied' | 'duplicate' | 'ignored';

/** Stripe's status in the spec's four (spec 4); null for a subscription not yet paid for (incomplete). */
function statusOf(stripeStatus: string): TSubscriptionRow['status'] | null {
  switch (stripeStatus) {
    case 'active':
      return 'active';
    case 'trialing':
      return 'trialing';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
    case 'paused':
      return 'cancelled';
    default:
      return null;
  }
}

function planOfPrice(stripe: TStripeConfig, priceId: string): { planId: TPaidPlanId; interval: TBillingInterval } | undefined {
  for (const [planId, intervals] of Object.entries(stripe.prices) as [TPaidPlanId, Partial<Record<TBillingInterval, string>>][]) {
    for (const [interval, id] of Object.entries(intervals) as [TBillingInterval, string][]) {
      if (id === priceId) return { planId, interval };
    }
  }
  return undefined;
}

function secondsToMs(seconds: number | null | undefined): number | null {
  return typeof seconds === 'number' ? seconds * 1000 : null;
}

/** What a subscription object says about the row; undefined when it says nothing we act on. */
function changeOfSubscription(stripe: TStripeConfig, sub: TSubscriptionObject, row: TSubscriptionRow, eventCreatedMs: number, deleted: boolean): TSubscriptionChange | undefined {
  const status = deleted ? 'cancelled' : statusOf(sub.status);
  if (status === null) return undefined;
  const item = sub.items?.data[0];
  const plan = item ? planOfPrice(stripe, item.price.id) : undefined;
  if (!plan && status !== 'cancelled') return undefined;
  // A late cancellation of a subscription the creator already replaced leaves the new one alone.
  if (status === 'cancelled' && row.stripe_subscription_id !== null && row.stripe_subscription_id !== sub.id && row.status !== 'cancelled') return undefined;
  const isTrial = status === 'trialing';
  return {
    ...(plan ? { plan_id: plan.planId, billing_interval: plan.interval } : {}),
    status,
    stripe_subscription_id: sub.id,
    current_period_end: secondsToMs(item?.current_period_end ?? sub.current_period_end),
    cancel_at_period_end: sub.cancel_at_period_end && status !== 'cancelled' ? 1 : 0,
    trial_end: isTrial ? secondsToMs(sub.trial_end) : null,
    ...(isTrial && row.trial_used_at === null ? { trial_used_at: eventCreatedMs } : {}),
    grace_period_end: status === 'past_due' ? (row.grace_period_end ?? eventCreatedMs + PAYMENT_GRACE_DAYS * DAY_MS) : null,
  };
}

function subscriptionIdOfInvoice(invoice: z.infer<typeof ZInvoiceObjectSchema>): string | null {
  return invoice.parent?.subscription_details?.subscription ?? invoice.subscription ?? null;
}

/** The creator's row for a Stripe customer; made from the subscription's metadata when only Stripe knows the link. */
async function rowOfCustomer(deps: TDeps, customerId: string, workspaceId: string | undefined): Promise<TSubscriptionRow | undefined> {
  const row = await findSubscriptionByCustomer(deps.db, customerId);
  if (row || !workspaceId) return row;
  const exists = await deps.db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst();
  if (!exists) return undefined;
  await ensureSubscriptionRow(deps.db, workspaceId, deps.clock.now());
  await setStripeCustomer(deps.db, workspaceId, customerId, deps.clock.now());
  return findSubscriptionByCustomer(deps.db, customerId);
}

/** Verifies the signature over the raw body and answers the event (400 for a bad or stale signature). */
export function verifyWebhook(deps: TDeps, rawBody: Buffer, signature: string | undefined): TEvent {
  const stripe = deps.stripe;
  const config = deps.config.billing.stripe;
  if (!stripe || !config) throw billingError('billing_not_configured');
  if (!signature) throw new AppError('bad_request', 'Missing Stripe-Signature header');
  let event: unknown;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret, config.webhookToleranceSeconds, undefined, deps.clock.now());
  } catch (cause) {
    throw new AppError('bad_request', 'Invalid Stripe signature', { cause });
  }
  const signedAt = /(?:^|,)\s*t=(\d+)/.exec(signature)?.[1];
  if (signedAt === undefined || Number(signedAt) * 1000 > deps.clock.now() + FUTURE_SKEW_MS) throw new AppError('bad_request', 'Stripe signature timestamp is in the future');
  const parsed = ZEventSchema.safeParse(event);
  if (!parsed.success) throw new AppError('bad_request', 'Not a Stripe event');
  refuseFutureEvent(deps, parsed.data);
  return parsed.data;
}

/** An event as Stripe's API lists it; undefined when it is not one, or dated in the future. */
export function parseStripeEvent(deps: Pick<TDeps, 'clock'>, raw: unknown): TEvent | undefined {
  const parsed = ZEventSchema.safeParse(raw);
  if (!parsed.success || parsed.data.created * 1000 > deps.clock.now() + FUTURE_SKEW_MS) return undefined;
  return parsed.data;
}

/** An event dated ahead of our clock (beyond the skew) is refused: applied, it would outrank every real one. */
function refuseFutureEvent(deps: Pick<TDeps, 'clock'>, event: TEvent): void {
  if (event.created * 1000 > deps.clock.now() + FUTURE_SKEW_MS) throw new AppError('bad_request', 'Stripe event is dated in the future');
}

/** The audit log's 'plan.changed' when an applied change moved the plan or its status (the system did it: no actor). */
async function recordPlanChange(trx: Transaction<Database>, before: TSubscriptionRow, change: TSubscriptionChange, at: number): Promise<void> {
  const planId = change.plan_id ?? before.plan_id;
  const status = change.status ?? before.status;
  if (planId === before.plan_id && status === before.status) return;
  const name = isPlanId(planId) ? PLANS[planId].name : planId;
  await recordAuditEvent(trx, {
    workspaceId: before.workspace_id,
    type: 'plan.changed',
    actor: null,
    target: name,
    details: `Plan ${name}, ${status.replace('_', ' ')} (was ${isPlanId(before.plan_id) ? PLANS[before.plan_id].name : before.plan_id}, ${before.status.replace('_', ' ')})`,
    address: null,
    at,
  });
}

/** Applies a verified event once. */
export async function applyWebhookEvent(deps: TDeps, event: TEvent): Promise<TWebhookOutcome> {
  const config = deps.config.billing.stripe;
  const stripe = deps.stripe;
  if (!config || !stripe) throw billingError('billing_not_configured');
  // A redelivery costs one read; the insert below is what settles a race between two deliveries.
  if (await isBillingEventRecorded(deps.db, event.id)) return 'duplicate';
  const createdMs = event.created * 1000;
  const now = deps.clock.now();

  // What the event needs from Stripe or the database, before the transaction (no network inside it).
  let row: TSubscriptionRow | undefined;
  let subscription: TSubscriptionObject | undefined;
  let deleted = false;
  let checkoutSessionId: string | undefined;
  let invoiceChange: ((row: TSubscriptionRow) => TSubscriptionChange | undefined) | undefined;
  const object = event.data.object;
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.trial_will_end': {
      subscription = ZSubscriptionObjectSchema.parse(object);
      deleted = event.type === 'customer.subscription.deleted';
      row = await rowOfCustomer(deps, subscription.customer, subscription.metadata?.workspace_id ?? subscription.metadata?.creator_id);
      break;
    }
    case 'checkout.session.completed': {
      const session = ZCheckoutSessionObjectSchema.parse(object);
      if (!session.customer) break;
      row = await rowOfCustomer(deps, session.customer, session.metadata?.workspace_id ?? session.metadata?.creator_id ?? session.client_reference_id ?? undefined);
      checkoutSessionId = session.id;
      // The session does not say the plan: its subscription, as Stripe has it now, does.
      if (session.subscription && row) subscription = ZSubscriptionObjectSchema.parse(await stripe.subscriptions.retrieve(session.subscription));
      break;
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = ZInvoiceObjectSchema.parse(object);
      const subscriptionId = subscriptionIdOfInvoice(invoice);
      if (!invoice.customer || !subscriptionId) break;
      row = await rowOfCustomer(deps, invoice.customer, undefined);
      if (!row) break;
      if (row.stripe_subscription_id !== subscriptionId) {
        // An invoice of a subscription the row does not know yet (its created event is still on its way).
        subscription = ZSubscriptionObjectSchema.parse(await stripe.subscriptions.retrieve(subscriptionId));
        break;
      }
      const periodEnd = secondsToMs(invoice.lines?.data.reduce((end, line) => Math.max(end, line.period?.end ?? 0), 0));
      invoiceChange =
        event.type === 'invoice.paid'
          ? (current) => ({
              status: current.status === 'cancelled' ? 'cancelled' : 'active',
              grace_period_end: null,
              ...(periodEnd && periodEnd > (current.current_period_end ?? 0) ? { current_period_end: periodEnd } : {}),
            })
          : (current) =>
              current.status === 'cancelled' ? undefined : { status: 'past_due', grace_period_end: current.grace_period_end ?? createdMs + PAYMENT_GRACE_DAYS * DAY_MS };
      break;
    }
    default:
      break;
  }

  let outcome: TWebhookOutcome = 'ignored';
  await deps.db.transaction().execute(async (trx) => {
    if (!(await recordBillingEvent(trx, { id: event.id, type: event.type, created: createdMs, processedAt: now }))) {
      outcome = 'duplicate';
      return;
    }
    if (!row) return;
    if (checkoutSessionId) {
      await setLastCheckoutSession(trx, row.id, checkoutSessionId, now);
      await clearOpenCheckoutSession(trx, row.workspace_id, checkoutSessionId, now);
    }
    const change = subscription ? changeOfSubscription(config, subscription, row, createdMs, deleted) : invoiceChange?.(row);
    if (!change) {
      if (checkoutSessionId) outcome = 'applied';
      return;
    }
    const guardedId = deleted ? null : (subscription?.id ?? row.stripe_subscription_id);
    const applied = await applySubscriptionChange(trx, row.id, change, { eventCreatedMs: createdMs, stripeSubscriptionId: guardedId, now });
    if (applied) await recordPlanChange(trx, row, change, now);
    if (applied || checkoutSessionId) outcome = 'applied';
  });
  return outcome;
}
