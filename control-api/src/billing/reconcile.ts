/**
 * The reconciliation of Stripe events (security checklist, Stripe: 'after an outage, recover with
 * List Events'). Every STRIPE_RECONCILE_INTERVAL_SECONDS the API process asks Stripe for the
 * events whose webhook was not delivered (`GET /v1/events?delivery_success=false`: failed, or not
 * yet sent) and applies each like a webhook, oldest first. Applying is idempotent by event id, so
 * an event that did arrive, or arrives later, is applied once; an event dated in the future is
 * skipped like a webhook refuses it.
 */
import type { TBillingDeps } from './billing.deps.ts';
import { runPeriodically, type TPeriodicTask } from '../periodic-task.ts';
import { applyWebhookEvent, parseStripeEvent, type TWebhookOutcome } from './webhook.service.ts';

type TDeps = Pick<TBillingDeps, 'db' | 'config' | 'clock' | 'log' | 'stripe'>;

/** Stripe keeps events 30 days; one run reads at most this many (the next run goes on). */
const MAX_EVENTS_PER_RUN = 1_000;
/** The event types webhook.service.ts acts on; others are never fetched. */
const APPLIED_TYPES = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
  'invoice.paid',
  'invoice.payment_failed',
];

export type TReconcileReport = Record<TWebhookOutcome | 'refused', number>;

/** One pass: the undelivered events Stripe lists, applied oldest first. */
export async function reconcileStripeEvents(deps: TDeps): Promise<TReconcileReport> {
  const report: TReconcileReport = { applied: 0, duplicate: 0, ignored: 0, refused: 0 };
  const stripe = deps.stripe;
  if (!stripe || !deps.config.billing.stripe) return report;
  const listed: unknown[] = [];
  for await (const event of stripe.events.list({ delivery_success: false, types: APPLIED_TYPES, limit: 100 })) {
    listed.push(event);
    if (listed.length >= MAX_EVENTS_PER_RUN) break;
  }
  // Stripe lists the newest first.
  for (const raw of listed.reverse()) {
    const event = parseStripeEvent(deps, raw);
    if (!event) {
      report.refused += 1;
      continue;
    }
    report[await applyWebhookEvent(deps, event)] += 1;
  }
  if (report.applied > 0 || report.refused > 0) deps.log.warn({ ...report }, 'Stripe events applied by reconciliation (their webhooks were missed)');
  return report;
}

/** The periodic pass; nothing runs without Stripe keys or with the interval 0. */
export function startStripeReconciler(deps: TDeps): TPeriodicTask {
  const everyMs = deps.config.billing.stripe?.reconcileEveryMs ?? 0;
  if (!deps.stripe || everyMs <= 0) return { stop: async () => {} };
  return runPeriodically(() => reconcileStripeEvents(deps), {
    everyMs,
    firstAfterMs: Math.min(everyMs, 30_000),
    onError: (err) => deps.log.error({ err }, 'reconciling Stripe events failed'),
  });
}
