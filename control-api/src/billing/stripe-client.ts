/** The Stripe SDK, made once per runtime from the configuration; undefined without keys (billing off). */
import Stripe from 'stripe';
import type { TBillingConfig } from '../config/config.ts';

export type { Stripe };

export function createStripeClient(billing: TBillingConfig): Stripe | undefined {
  const stripe = billing.stripe;
  if (!stripe) return undefined;
  return new Stripe(stripe.secretKey, {
    // Network failures are retried with the same idempotency key, so a retried create makes nothing twice.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(stripe.api ? { host: stripe.api.host, port: stripe.api.port, protocol: stripe.api.protocol } : {}),
  });
}
