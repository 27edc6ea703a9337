/**
 * Billing against abuse and faults: trials only for confirmed addresses and a few per client
 * address (kept in the database), webhook events dated in the future refused, missed events
 * applied by the reconciliation, one Checkout Session at a time (no double charge), and an account
 * deleted only once its Stripe subscription is cancelled.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_ERRORS, ZBillingRedirectResponseSchema } from '@dropsite/shared';
import { loadConfig } from '../config/config.ts';
import { browserSignedInAs, createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import type { TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import type { TStripeStandin } from '@dropsite/testkit/control-api/stripe-standin';
import { isDialectAvailable, TEST_DIALECTS, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { customerCreator as payingCreator, startBillingApp, stripeSubscription, subscriptionOf, type TBillingApp } from '@dropsite/testkit/control-api/billing-fixtures';
import { createFakeClock, startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { reconcileStripeEvents, startStripeReconciler } from './reconcile.ts';

const DAY_MS = 86_400_000;
const TRUST_ONE_PROXY = loadConfig({ TRUST_PROXY: '1' }).trustProxy;

/** The password the paying creators sign up with; deleting an account takes it. */
const PASSWORD = 'correct horse battery';

describe.each(TEST_DIALECTS)('the Pro trial against throwaway sign-ups (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  const clock = createFakeClock();
  let app: TTestApp;
  let database: ReturnType<typeof testAppDatabase>;
  let dataDir: string;

  const config = () => ({ ...database.config, rateLimits: UNREACHED_RATE_LIMITS, trustProxy: TRUST_ONE_PROXY });
  const startTrialFrom = (browser: TBrowser, address: string) => browser.json('/api/billing/trial', { method: 'POST', headers: { 'x-forwarded-for': address } });

  beforeAll(async () => {
    if (!available) return;
    database = testAppDatabase(dialect, 'trial_limits');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-trials-'));
    app = await startTestApp({ clock, startWorker: false, dataDir, config: config() });
  });
  afterAll(async () => {
    if (!available) return;
    await app.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it.skipIf(!available)('refuses the trial to an unconfirmed email address with 403 and the verify prompt’s message, and starts nothing', async () => {
    const browser = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'throwaway@example.com', verified: false }));
    const res = await startTrialFrom(browser, '198.51.100.1');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, code: 'trial_needs_confirmed_email', error: BILLING_ERRORS.trial_needs_confirmed_email.message });
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'free', status: 'active', trial_available: true });
    // The refused attempt used none of the address's trials.
    const confirmed = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'confirmed@example.com' }));
    expect((await startTrialFrom(confirmed, '198.51.100.1')).status).toBe(201);
  });

  it.skipIf(!available)('starts one trial per client address in 30 days, even for new accounts, and keeps the count across a restart', async () => {
    const first = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'first@example.com' }));
    expect((await startTrialFrom(first, '203.0.113.7')).status).toBe(201);

    const second = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'second@example.com' }));
    const refused = await startTrialFrom(second, '203.0.113.7');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, code: 'trial_address_limit', error: BILLING_ERRORS.trial_address_limit.message });
    expect(await subscriptionOf(second)).toMatchObject({ plan_id: 'free', trial_available: true });
    // Another address of the same IPv6 /64 is the same client.
    const v6 = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'v6-a@example.com' }));
    expect((await startTrialFrom(v6, '2001:db8:1:2::1')).status).toBe(201);
    const v6Neighbour = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'v6-b@example.com' }));
    expect((await startTrialFrom(v6Neighbour, '2001:db8:1:2:ffff::9')).status).toBe(429);

    // No address is stored, only its hash.
    const slots = await app.deps.db.selectFrom('trial_address_slots').selectAll().execute();
    expect(JSON.stringify(slots)).not.toMatch(/203\.0\.113\.7|2001:db8/);

    // A restart on the same database still counts it.
    await app.close();
    app = await startTestApp({ clock, startWorker: false, dataDir, config: config() });
    const third = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'third@example.com' }));
    expect((await startTrialFrom(third, '203.0.113.7')).status).toBe(429);

    // 30 days later the address may start one again, once.
    clock.advance(30 * DAY_MS + 1);
    const fourth = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'fourth@example.com' }));
    expect((await startTrialFrom(fourth, '203.0.113.7')).status).toBe(201);
    const fifth = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'fifth@example.com' }));
    expect((await startTrialFrom(fifth, '203.0.113.7')).status).toBe(429);
  });

  it.skipIf(!available)('gives one of five concurrent sign-ups from one address the trial', async () => {
    const browsers = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => browserSignedInAs(app, await createSignedInCreator(app.deps, { email: `burst-${i}@example.com` }))),
    );
    const answers = await Promise.all(browsers.map((browser) => startTrialFrom(browser, '192.0.2.55')));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 429, 429, 429, 429]);
  });
});

describe.each(TEST_DIALECTS)('billing safeguards on Stripe (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  let app: TTestApp;
  let standin: TStripeStandin;
  let billing: TBillingApp;
  const customerCreator = (email: string) => payingCreator(app, email, { password: PASSWORD });
  const sessionIdOf = (url: string) => url.split('/').pop() ?? '';

  beforeAll(async () => {
    if (!available) return;
    billing = await startBillingApp(dialect, 'billing_safeguards');
    ({ app, standin } = billing);
  });
  afterAll(async () => {
    if (!available) return;
    await billing.close();
  });

  it.skipIf(!available)('refuses an event dated, or signed, more than a minute in the future with 400 and applies nothing', async () => {
    const { browser, customer } = await customerCreator('future@example.com');
    const now = Math.floor(Date.now() / 1000);
    const future = standin.event('customer.subscription.created', stripeSubscription({ id: 'sub_future', customer, status: 'active' }), now + 3600);
    const datedAhead = await standin.send(future);
    expect(datedAhead.status).toBe(400);
    expect(JSON.parse(datedAhead.body)).toMatchObject({ success: false, error: 'Stripe event is dated in the future' });

    const signedAhead = standin.event('customer.subscription.created', stripeSubscription({ id: 'sub_future', customer, status: 'active' }));
    // Sent as a body only: Stripe never made this delivery, so its list of events does not name it.
    const res = await standin.send(JSON.stringify(signedAhead), { timestamp: now + 3600 });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, error: 'Stripe signature timestamp is in the future' });

    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'free' });
    expect(await app.deps.db.selectFrom('billing_events').select('id').where('id', 'in', [future.id, signedAhead.id]).execute()).toHaveLength(0);
    // The reconciliation, which finds the future-dated event among the undelivered ones, skips it too.
    expect((await reconcileStripeEvents(app.deps)).refused).toBeGreaterThanOrEqual(1);
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'free' });

    // Clocks a few seconds apart are fine.
    const slightlyAhead = standin.event('customer.subscription.created', stripeSubscription({ id: 'sub_future', customer, status: 'active' }), now + 20);
    expect((await standin.send(slightlyAhead, { timestamp: now + 20 })).status).toBe(200);
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'pro_monthly', status: 'active' });
  });

  it.skipIf(!available)('applies the events whose webhook was missed once, from Stripe’s list of undelivered events', async () => {
    const { browser, customer } = await customerCreator('missed@example.com');
    const created = standin.event('customer.subscription.created', stripeSubscription({ id: 'sub_missed', customer, status: 'active' }));
    standin.record(created);
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'free' });

    const before = standin.requests.length;
    const first = await reconcileStripeEvents(app.deps);
    expect(first.applied).toBeGreaterThanOrEqual(1);
    const listCall = standin.requests.slice(before).find((r) => r.path === '/v1/events');
    expect(listCall).toBeDefined();
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'pro_monthly', status: 'active' });

    // Stripe delivers it late: nothing is applied twice.
    expect(JSON.parse((await standin.send(created)).body)).toMatchObject({ outcome: 'duplicate' });
    const cancelled = standin.event('customer.subscription.deleted', stripeSubscription({ id: 'sub_missed', customer, status: 'canceled' }));
    standin.record(cancelled);
    const second = await reconcileStripeEvents(app.deps);
    expect(second.applied).toBe(1);
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'free', status: 'cancelled' });
    const third = await reconcileStripeEvents(app.deps);
    expect(third.applied).toBe(0);
    expect(await app.deps.db.selectFrom('billing_events').select('id').where('id', 'in', [created.id, cancelled.id]).execute()).toHaveLength(2);
  });

  it.skipIf(!available)('runs the reconciliation every STRIPE_RECONCILE_INTERVAL_SECONDS', async () => {
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh', STRIPE_RECONCILE_INTERVAL_SECONDS: '120' }).billing.stripe?.reconcileEveryMs).toBe(120_000);
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh' }).billing.stripe?.reconcileEveryMs).toBe(900_000);
    const { browser, customer } = await customerCreator('periodic@example.com');
    standin.record(standin.event('customer.subscription.created', stripeSubscription({ id: 'sub_periodic', customer, status: 'active' })));
    const stripeConfig = app.deps.config.billing.stripe;
    if (!stripeConfig) throw new Error('billing is off');
    const reconciler = startStripeReconciler({
      ...app.deps,
      config: { ...app.deps.config, billing: { ...app.deps.config.billing, stripe: { ...stripeConfig, reconcileEveryMs: 20 } } },
    });
    try {
      await expect.poll(async () => (await subscriptionOf(browser)).plan_id, { timeout: 10_000 }).toBe('pro_monthly');
    } finally {
      await reconciler.stop();
    }
  });

  it.skipIf(!available)('keeps one Checkout Session open: the same plan continues it, another plan expires it first, so only one can be paid', async () => {
    const { browser, id, checkoutUrl } = await customerCreator('twice@example.com');
    const again = await browser.json('/api/billing/checkout', { method: 'POST', json: { planId: 'pro_monthly', interval: 'monthly' } });
    expect(ZBillingRedirectResponseSchema.parse(again.body).url).toBe(checkoutUrl);

    const other = await browser.json('/api/billing/checkout', { method: 'POST', json: { planId: 'business_monthly', interval: 'monthly' } });
    expect(other.status).toBe(200);
    const otherUrl = ZBillingRedirectResponseSchema.parse(other.body).url;
    expect(otherUrl).not.toBe(checkoutUrl);
    expect(standin.requests.some((r) => r.method === 'POST' && r.path === `/v1/checkout/sessions/${sessionIdOf(checkoutUrl)}/expire`)).toBe(true);
    // The first session can no longer be paid; its page says so.
    await expect(standin.pay(sessionIdOf(checkoutUrl))).rejects.toThrow(/expired/);
    expect(await (await fetch(checkoutUrl)).text()).toContain('This checkout session has expired');

    const paid = await standin.pay(sessionIdOf(otherUrl));
    expect(paid.statuses).toEqual([200, 200, 200]);
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'business_monthly', status: 'active', last_checkout_session_id: sessionIdOf(otherUrl) });
    expect([...standin.subscriptions.values()].filter((s) => s.metadata.creator_id === id)).toHaveLength(1);
    const row = await app.deps.db.selectFrom('subscriptions').selectAll().where('workspace_id', '=', id).executeTakeFirstOrThrow();
    expect(row.open_checkout_session_id).toBeNull();
  });

  it.skipIf(!available)('opens a new Checkout Session when Stripe no longer knows the one remembered', async () => {
    const { browser, id, checkoutUrl } = await customerCreator('forgotten@example.com');
    await app.deps.db.updateTable('subscriptions').set({ open_checkout_session_id: 'cs_test_unknown0' }).where('workspace_id', '=', id).execute();
    const res = await browser.json('/api/billing/checkout', { method: 'POST', json: { planId: 'pro_monthly', interval: 'monthly' } });
    expect(res.status).toBe(200);
    const url = ZBillingRedirectResponseSchema.parse(res.body).url;
    expect(url).not.toBe(checkoutUrl);
    expect((await standin.pay(sessionIdOf(url))).statuses).toEqual([200, 200, 200]);
  });

  it.skipIf(!available)('refuses checkout once the session is paid or Stripe has a live subscription, even before the webhooks land', async () => {
    const { browser, checkoutUrl } = await customerCreator('early@example.com');
    // Paid at Stripe; the webhooks are not delivered yet.
    const webhookUrl = standin.webhookUrl;
    standin.webhookUrl = 'http://127.0.0.1:9/unreachable';
    await expect(standin.pay(sessionIdOf(checkoutUrl))).rejects.toThrow();
    standin.webhookUrl = webhookUrl;
    const second = await browser.json('/api/billing/checkout', { method: 'POST', json: { planId: 'business_monthly', interval: 'yearly' } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'already_subscribed', error: BILLING_ERRORS.already_subscribed.message });
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'free', has_billing_account: true });

    // A subscription Stripe has for the customer that our rows do not know (made elsewhere) counts too.
    const other = await customerCreator('elsewhere@example.com');
    standin.subscriptions.set('sub_elsewhere', {
      id: 'sub_elsewhere',
      object: 'subscription',
      customer: other.customer,
      status: 'active',
      cancel_at_period_end: false,
      created: Math.floor(Date.now() / 1000),
      trial_end: null,
      metadata: {},
      items: { object: 'list', data: [] },
    });
    const refused = await other.browser.json('/api/billing/checkout', { method: 'POST', json: { planId: 'pro_monthly', interval: 'yearly' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'already_subscribed' });
  });

  it.skipIf(!available)('upgrades nobody with another creator’s paid session: only the payer’s subscription names it', async () => {
    const payer = await customerCreator('payer-a@example.com');
    await standin.pay(sessionIdOf(payer.checkoutUrl));
    const other = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'other-b@example.com' }));
    // The return page of the other creator, opened with the payer's session id, asks the API only for its own subscription.
    expect((await other.fetch(`/billing?checkout=success&session_id=${sessionIdOf(payer.checkoutUrl)}`)).status).toBe(200);
    expect(await subscriptionOf(other)).toMatchObject({ plan_id: 'free', last_checkout_session_id: null });
    expect(await subscriptionOf(payer.browser)).toMatchObject({ plan_id: 'pro_monthly', last_checkout_session_id: sessionIdOf(payer.checkoutUrl) });
  });

  it.skipIf(!available)('cancels the Stripe subscription at once when the account is deleted', async () => {
    const { browser, id, checkoutUrl } = await customerCreator('leaving@example.com');
    const { subscription } = await standin.pay(sessionIdOf(checkoutUrl));
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'pro_monthly', status: 'active' });

    const res = await browser.json('/api/account', { method: 'DELETE', json: { confirmEmail: 'leaving@example.com', password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(standin.subscriptions.get(subscription.id)?.status).toBe('canceled');
    const cancel = standin.requests.find((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscription.id}`);
    expect(cancel?.idempotencyKey).toMatch(/^dropsite-/);
    expect(await app.deps.db.selectFrom('creators').select('id').where('id', '=', id).execute()).toHaveLength(0);
  });

  it.skipIf(!available)('refuses to delete the account with 503 and changes nothing while Stripe cannot be reached', async () => {
    const { browser, id, checkoutUrl } = await customerCreator('stuck@example.com');
    const { subscription } = await standin.pay(sessionIdOf(checkoutUrl));
    standin.unavailable = true;
    try {
      const res = await browser.json('/api/account', { method: 'DELETE', json: { confirmEmail: 'stuck@example.com', password: PASSWORD } });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ success: false, code: 'billing_unreachable', error: BILLING_ERRORS.billing_unreachable.message });
    } finally {
      standin.unavailable = false;
    }
    expect(await app.deps.db.selectFrom('creators').select('id').where('id', '=', id).execute()).toHaveLength(1);
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'pro_monthly', status: 'active' });
    expect(standin.subscriptions.get(subscription.id)?.status).toBe('active');
    // Once Stripe answers again the deletion goes through.
    expect((await browser.json('/api/account', { method: 'DELETE', json: { confirmEmail: 'stuck@example.com', password: PASSWORD } })).status).toBe(200);
    expect(standin.subscriptions.get(subscription.id)?.status).toBe('canceled');
  });
});
