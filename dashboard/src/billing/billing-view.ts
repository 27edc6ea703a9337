/**
 * The billing dashboard's pure reading of a subscription and its usage: bar widths, the status
 * badge's tone and words, and how limits, prices and dates are written (spec 2 'Billing dashboard',
 * 4 'Subscription status', 9 'progress bar capped at 100%', 'storage shown in Bytes … TB').
 */
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import {
  BILLING_UI_MESSAGES,
  CHECKOUT_RETURN,
  errorMessage,
  formatBytes,
  isUpgradeErrorCode,
  PLAN_LIMIT_KEYS,
  PLAN_LIMIT_ROWS,
  PLANS,
  UNLIMITED,
  UPGRADE_ERROR_CODES,
  usageOf,
  type TBillingInterval,
  type TPlan,
  type TPlanId,
  type TSubscription,
  type TUsage,
  type TUpgradeErrorCode,
  type TUsageLimits,
} from '@dropsite/shared';

/** Spec 4: default for active, destructive for cancelled and past_due, secondary for trialing and anything else. */
export type TBadgeTone = 'default' | 'destructive' | 'secondary';

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Past due',
  cancelled: 'Cancelled',
};

export function statusBadge(status: string): { tone: TBadgeTone; label: string } {
  const tone: TBadgeTone = status === 'active' ? 'default' : status === 'cancelled' || status === 'past_due' ? 'destructive' : 'secondary';
  const label = STATUS_LABELS[status] ?? status.replace(/_/g, ' ').replace(/^\p{L}/u, (c) => c.toUpperCase());
  return { tone, label };
}

/**
 * How full a meter is, as a whole percentage for the bar: null when the limit is unlimited (no bar),
 * never above 100 however far over the limit the creator is, 100 for anything used of a zero limit.
 */
export function usagePercent(used: number, limit: number): number | null {
  if (limit === UNLIMITED || limit < 0) return null;
  if (limit === 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, Math.round((used / limit) * 100)));
}

export interface TUsageMeter {
  label: string;
  unit: 'bytes' | 'count';
  used: number;
  limit: number;
}

/** The usage cards, one per plan limit in the catalogue's order (spec: storage, projects, collaborators, API requests). */
export function usageMeters(usage: TUsage, limits: TUsageLimits): TUsageMeter[] {
  return PLAN_LIMIT_KEYS.map((key) => ({ label: PLAN_LIMIT_ROWS[key].label, unit: PLAN_LIMIT_ROWS[key].unit, used: usageOf(usage, key), limit: limits[key] }));
}

function formatAmount(value: number, unit: 'bytes' | 'count'): string {
  return unit === 'bytes' ? formatBytes(value) : value.toLocaleString('en-US');
}

/** 'Unlimited', 'Not included' (a zero limit) or the limit written in its unit. */
export function formatLimit(limit: number, unit: 'bytes' | 'count'): string {
  if (limit === UNLIMITED || limit < 0) return 'Unlimited';
  if (limit === 0) return 'Not included';
  return formatAmount(limit, unit);
}

/** The line under a usage card's title: '1.5 GB of 5 GB', '2 of 3', '4 (unlimited)'. */
export function describeUsage(used: number, limit: number, unit: 'bytes' | 'count'): string {
  const amount = formatAmount(used, unit);
  if (limit === UNLIMITED || limit < 0) return `${amount} · Unlimited`;
  if (limit === 0) return used > 0 ? `${amount} · Not included in this plan` : 'Not included in this plan';
  return `${amount} of ${formatAmount(limit, unit)}`;
}

/**
 * How a meter is coloured: 'over' past its limit (after a downgrade: changes are refused), 'full'
 * at it (the next one is refused), 'high' from 80 %, else 'ok'; 'unlimited' has no bar.
 */
export function meterLevel(used: number, limit: number): 'unlimited' | 'ok' | 'high' | 'full' | 'over' {
  if (limit === UNLIMITED || limit < 0) return 'unlimited';
  if (used > limit) return 'over';
  if (limit > 0 && used === limit) return 'full';
  return (usagePercent(used, limit) ?? 0) >= 80 ? 'high' : 'ok';
}

/** A plan's price for an interval: '$19 / month', '$190 / year', '$0'. */
export function formatPrice(plan: TPlan, interval: TBillingInterval): string {
  const amount = interval === 'yearly' ? plan.yearlyPrice : plan.price;
  const digits = Number.isInteger(amount) ? 0 : 2;
  const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: plan.currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
  if (amount === 0) return money;
  return `${money} / ${interval === 'yearly' ? 'year' : 'month'}`;
}

/** What paying yearly saves against twelve monthly payments, in whole dollars (0 when nothing). */
export function yearlySaving(plan: TPlan): number {
  return Math.max(0, Math.round(plan.price * 12 - plan.yearlyPrice));
}

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

/** 'December 10, 2026' in the viewer's time zone; '' for a date that cannot be read. */
export function formatBillingDate(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const time = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(time) ? dateFormat.format(time) : '';
}

/** Whole days from `now` until `until` (rounded up, never below 0). */
export function daysUntil(until: string | number, now: number): number {
  const time = typeof until === 'number' ? until : Date.parse(until);
  if (!Number.isFinite(time)) return 0;
  return Math.max(0, Math.ceil((time - now) / 86_400_000));
}

/**
 * Whether the creator pays through a Stripe subscription that is still running: a change of plan
 * then goes through the billing portal (a second Checkout would be refused as already subscribed).
 */
export function hasPaidSubscription(subscription: TSubscription): boolean {
  return subscription.has_billing_account && subscription.interval !== null && subscription.status !== 'cancelled' && subscription.plan_id !== 'free';
}

/**
 * What a plan's card offers: 'checkout' (an upgrade, or keeping the trial's plan), 'portal' (a
 * higher plan while paying for another), or nothing (the current plan, a lower one, Free).
 */
export function planOffer(planId: TPlanId, subscription: TSubscription, order: readonly TPlanId[]): 'checkout' | 'portal' | null {
  if (PLANS[planId].price === 0) return null;
  const isCurrent = planId === subscription.plan_id;
  if (isCurrent) return subscription.status === 'trialing' ? 'checkout' : null;
  if (order.indexOf(planId) < order.indexOf(subscription.plan_id)) return null;
  return hasPaidSubscription(subscription) ? 'portal' : 'checkout';
}

/** What `/billing` was opened with on the way back from Stripe Checkout. */
export type TCheckoutReturn = { kind: 'success'; sessionId: string | null } | { kind: 'cancelled' } | null;

export function readCheckoutReturn(search: string): TCheckoutReturn {
  const params = new URLSearchParams(search);
  const value = params.get(CHECKOUT_RETURN.param);
  if (value === CHECKOUT_RETURN.success) return { kind: 'success', sessionId: params.get(CHECKOUT_RETURN.sessionParam) || null };
  if (value === CHECKOUT_RETURN.cancelled) return { kind: 'cancelled' };
  return null;
}

/**
 * Whether the payment the browser came back from has been fulfilled by Stripe's webhook: the
 * subscription names that Checkout Session. Without a session id (an edited address) only a paid
 * plan that is active counts.
 */
export function isCheckoutFulfilled(subscription: TSubscription, sessionId: string | null): boolean {
  if (sessionId) return subscription.last_checkout_session_id === sessionId;
  return subscription.plan_id !== 'free' && subscription.status === 'active';
}

/** The refusals that a better plan cures (the catalogue's upgrade codes): the UI shows their message with a link to /billing. */
export type TPlanLimitCode = TUpgradeErrorCode;

/** The upgrade code whose message `text` starts with (the server words them exactly as the catalogue does). */
function planLimitOfMessage(text: string): TPlanLimitCode | null {
  return UPGRADE_ERROR_CODES.find((candidate) => text.startsWith(errorMessage(candidate))) ?? null;
}

/**
 * The plan limit an error is, or null. Read from the error's `code` when it carries one (a code the
 * catalogue does not know is no plan limit), else from its message (an upload's error keeps only
 * the message). A string is read as such a message.
 */
export function planLimitOf(error: unknown): TPlanLimitCode | null {
  if (typeof error === 'string') return planLimitOfMessage(error);
  if (!(error instanceof Error)) return null;
  const code: unknown = 'code' in error ? error.code : undefined;
  if (typeof code === 'string') return isUpgradeErrorCode(code) ? code : null;
  return planLimitOfMessage(error.message);
}

/** The reply a call got that was not the shape asked for (api-reply.ts). */
const UNEXPECTED_REPLY = 'Unexpected reply from the server';
const NO_CONNECTION = 'No connection. Check your network and try again.';

/**
 * Spec 8: a failed checkout (or portal) shows the server's error field, else `fallback`;
 * 'Invalid checkout data received' when the answer has no address to go to; 'Upgrade failed'
 * for anything else.
 */
export function billingActionMessage(error: unknown, fallback: string): string {
  if (!(error instanceof ApiRequestError)) return BILLING_UI_MESSAGES.upgradeFailed;
  if (error.status === 0) return NO_CONNECTION;
  if (error.message === UNEXPECTED_REPLY) return 'Invalid checkout data received';
  if (/^Request failed \(\d+\)$/.test(error.message)) return fallback;
  return error.message;
}

/** Spec 8: 'the error message or Failed to load billing data'. */
export function billingLoadMessage(error: unknown): string {
  if (error instanceof ApiRequestError && error.status === 0) return NO_CONNECTION;
  if (error instanceof ApiRequestError && error.status < 500 && !/^Request failed \(\d+\)$/.test(error.message)) return error.message;
  return BILLING_UI_MESSAGES.loadFailed;
}
