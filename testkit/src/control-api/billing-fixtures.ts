/** Billing tests against the Stripe stand-in: the app and stand-in pair, paying creators and Stripe's objects. */
import { expect } from 'vitest';
import { ZBillingRedirectResponseSchema, ZSubscriptionResponseSchema, type TSubscription } from '@dropsite/shared';
import { browserSignedInAs, createSignedInCreator } from './accounts.ts';
import type { TBrowser } from './site-fixtures.ts';
import { STANDIN_PRICES, standinBillingConfig, startStripeStandin, type TStripeStandin } from './stripe-standin.ts';
import { testAppDatabase } from './test-database.ts';
import { startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from './test-app.ts';
import type { TDialect } from '@dropsite/control-api/internals';

export interface TBillingApp {
  app: TTestApp;
  standin: TStripeStandin;
  close(): Promise<void>;
}

/** A test app on the dialect whose billing talks to a Stripe stand-in of its own, which sends its webhooks to the app. */
export async function startBillingApp(dialect: TDialect, suite: string): Promise<TBillingApp> {
  const standin = await startStripeStandin();
  const database = testAppDatabase(dialect, suite);
  const app = await startTestApp({ startWorker: false, config: { ...database.config, rateLimits: UNREACHED_RATE_LIMITS, billing: standinBillingConfig(standin) } });
  standin.webhookUrl = `${app.url}/api/billing/webhook`;
  return {
    app,
    standin,
    async close() {
      await app.close();
      await database.drop();
      await standin.close();
    },
  };
}

export async function subscriptionOf(browser: TBrowser): Promise<TSubscription> {
  const res = await browser.json('/api/billing/subscription');
  expect(res.status).toBe(200);
  return ZSubscriptionResponseSchema.parse(res.body).subscription;
}

/** A signed-in creator who went through checkout once, so Stripe knows them as a customer. */
export async function customerCreator(
  app: TTestApp,
  email: string,
  options: { password?: string } = {},
): Promise<{ browser: TBrowser; id: string; customer: string; checkoutUrl: string }> {
  const creator = await createSignedInCreator(app.deps, { email, ...(options.password === undefined ? {} : { password: options.password }) });
  const browser = browserSignedInAs(app, creator);
  const res = await browser.json('/api/billing/checkout', { method: 'POST', json: { planId: 'pro_monthly', interval: 'monthly' } });
  expect(res.status).toBe(200);
  const { url } = ZBillingRedirectResponseSchema.parse(res.body);
  const row = await app.deps.db.selectFrom('subscriptions').selectAll().where('workspace_id', '=', creator.id).executeTakeFirstOrThrow();
  return { browser, id: creator.id, customer: row.stripe_customer_id ?? '', checkoutUrl: url };
}

/** A Stripe subscription object as Stripe's events carry it. */
export function stripeSubscription(input: {
  id: string;
  customer: string;
  status: string;
  price?: string;
  periodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  trialEnd?: number | null;
}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    id: input.id,
    object: 'subscription',
    customer: input.customer,
    status: input.status,
    cancel_at_period_end: input.cancelAtPeriodEnd ?? false,
    trial_end: input.trialEnd ?? null,
    metadata: {},
    items: {
      object: 'list',
      data: [{ id: `si_${input.id}`, price: { id: input.price ?? STANDIN_PRICES.pro_monthly.monthly }, current_period_end: input.periodEnd ?? now + 30 * 86_400 }],
    },
  };
}
