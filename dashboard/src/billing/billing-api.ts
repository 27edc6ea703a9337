/**
 * The signed-in creator's billing calls (spec 7.5-7.7 on Stripe). The server knows the creator by
 * the session cookie; nothing here names them, and no price or amount is ever sent: the server
 * picks Stripe's price from its own configuration for the plan and interval asked for.
 */
import { callApi, type TSendRequest } from '@dropsite/shared/browser/api-client';
import {
  ZBillingRedirectResponseSchema,
  ZSubscriptionResponseSchema,
  ZTrialResponseSchema,
  ZUsageResponseSchema,
  type TBillingInterval,
  type TPaidPlanId,
  type TSubscription,
  type TSubscriptionResponse,
  type TUsageResponse,
} from '@dropsite/shared';
import { parseReply } from '../api-reply.ts';

export async function fetchSubscription(send?: TSendRequest): Promise<TSubscriptionResponse> {
  return parseReply(ZSubscriptionResponseSchema, await callApi('/api/billing/subscription', {}, send));
}

export async function fetchUsage(send?: TSendRequest): Promise<TUsageResponse> {
  return parseReply(ZUsageResponseSchema, await callApi('/api/billing/usage', {}, send));
}

/** The Stripe Checkout page to send the browser to for `planId` billed every `interval`. */
export async function createCheckout(planId: TPaidPlanId, interval: TBillingInterval, send?: TSendRequest): Promise<string> {
  return parseReply(ZBillingRedirectResponseSchema, await callApi('/api/billing/checkout', { method: 'POST', body: { planId, interval } }, send)).url;
}

/** The Stripe Customer Portal (card, invoices, cancellation) for the creator's billing account. */
export async function openBillingPortal(send?: TSendRequest): Promise<string> {
  return parseReply(ZBillingRedirectResponseSchema, await callApi('/api/billing/portal', { method: 'POST', body: {} }, send)).url;
}

/** Starts the creator's one Pro trial; answers the subscription it started. */
export async function startTrial(send?: TSendRequest): Promise<TSubscription> {
  return parseReply(ZTrialResponseSchema, await callApi('/api/billing/trial', { method: 'POST', body: {} }, send)).subscription;
}
