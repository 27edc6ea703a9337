import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BILLING_ERRORS,
  PAYMENT_GRACE_DAYS,
  ZBillingRedirectResponseSchema,
  ZSubscriptionResponseSchema,
  ZTrialResponseSchema,
  ZUsageResponseSchema,
  ZWorkspaceSummarySchema,
} from '@dropsite/shared';
import { browserSignedInAs, createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { createBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { STANDIN_PRICES, standinBillingConfig, startStripeStandin, type TStripeStandin } from '@dropsite/testkit/control-api/stripe-standin';
import { isDialectAvailable, TEST_DIALECTS } from '@dropsite/testkit/control-api/test-database';
import { customerCreator as payingCreator, startBillingApp, stripeSubscription, subscriptionOf, type TBillingApp } from '@dropsite/testkit/control-api/billing-fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';

const DAY_MS = 86_400_000;

describe.each(TEST_DIALECTS)('billing on Stripe (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  let app: TTestApp;
  let standin: TStripeStandin;
  let billing: TBillingApp;
  const customerCreator = (email: string) => payingCreator(app, email);

  beforeAll(async () => {
    if (!available) return;
    billing = await startBillingApp(dialect, 'billing');
    ({ app, standin } = billing);
  });
  afterAll(async () => {
    if (!available) return;
    await billing.close();
  });

  it.skipIf(!available)('answers a signed-out caller 401 and a new creator Free, with a trial available', async () => {
    const anonymous = await createBrowser(app).json('/api/billing/subscription?userEmail=someone@example.com');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, error: 'Authentication required. Please sign in and try again.', code: 'unauthorized' });
    const creator = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'new@example.com' }));
    const res = await creator.json('/api/billing/subscription?userEmail=someone-else@example.com');
    expect(ZSubscriptionResponseSchema.parse(res.body)).toMatchObject({
      billing_configured: true,
      subscription: { plan_id: 'free', status: 'active', current_period_end: null, trial_available: true, has_billing_account: false },
    });
    const usage = ZUsageResponseSchema.parse((await creator.json('/api/billing/usage')).body);
    expect(usage).toMatchObject({ plan_id: 'free', currentUsage: { storage_used: 0, projects_count: 0, collaborators_count: 1, api_requests_count: 0 }, over_limit: false });
    expect(usage.limits).toEqual({ storage: 5_368_709_120, projects: 3, collaborators: 1, api_requests: 0, delivery_size: 2 * 1024 ** 3 });
  });

  it.skipIf(!available)('creates one Stripe customer per creator and a subscription-mode Checkout Session with idempotency keys', async () => {
    const before = standin.requests.length;
    const { browser, customer, checkoutUrl } = await customerCreator('checkout@example.com');
    expect(checkoutUrl).toMatch(new RegExp(`^${standin.url}/checkout/cs_test_`));
    const again = await browser.json('/api/billing/checkout', { method: 'POST', json: { planId: 'business_monthly', interval: 'yearly' } });
    expect(again.status).toBe(200);
    const calls = standin.requests.slice(before);
    expect(calls.filter((c) => c.path === '/v1/customers')).toHaveLength(1);
    const sessions = calls.filter((c) => c.path === '/v1/checkout/sessions');
    expect(sessions).toHaveLength(2);
    for (const call of [...sessions, ...calls.filter((c) => c.path === '/v1/customers')]) expect(call.idempotencyKey).toMatch(/^dropsite-/);
    expect(sessions[0]?.body).toMatchObject({
      mode: 'subscription',
      customer,
      'line_items[0][price]': STANDIN_PRICES.pro_monthly.monthly,
      success_url: `${app.url}/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${app.url}/billing?checkout=cancelled`,
    });
    expect(sessions[1]?.body['line_items[0][price]']).toBe(STANDIN_PRICES.business_monthly.yearly);
  });

  it.skipIf(!available)('upgrades only when the signed webhooks land, then opens the portal and refuses a second checkout', async () => {
    const { browser, checkoutUrl } = await customerCreator('payer@example.com');
    const sessionId = checkoutUrl.split('/').pop() ?? '';
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'free', last_checkout_session_id: null });
    const paid = await standin.pay(sessionId);
    expect(paid.statuses).toEqual([200, 200, 200]);
    const after = await subscriptionOf(browser);
    expect(after).toMatchObject({
      plan_id: 'pro_monthly',
      status: 'active',
      interval: 'monthly',
      last_checkout_session_id: sessionId,
      has_billing_account: true,
      trial_available: false,
    });
    expect(Date.parse(after.current_period_end ?? '')).toBeGreaterThan(Date.now() + 29 * DAY_MS);
    const usage = ZUsageResponseSchema.parse((await browser.json('/api/billing/usage')).body);
    expect(usage.limits).toMatchObject({ storage: 100 * 1024 ** 3, projects: -1, api_requests: 1000 });

    const second = await browser.json('/api/billing/checkout', { method: 'POST', json: { planId: 'business_monthly', interval: 'monthly' } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'already_subscribed', error: BILLING_ERRORS.already_subscribed.message });

    const portal = await browser.json('/api/billing/portal', { method: 'POST' });
    expect(portal.status).toBe(200);
    expect(ZBillingRedirectResponseSchema.parse(portal.body).url).toMatch(new RegExp(`^${standin.url}/portal/bps_`));
    expect(standin.requests.at(-1)).toMatchObject({ path: '/v1/billing_portal/sessions', body: { return_url: `${app.url}/billing` } });
  });

  it.skipIf(!available)('bills a team workspace on its own: its owner checks out, an admin reads the plan but cannot pay, and the audit log records the change', async () => {
    const owner = await createSignedInCreator(app.deps, { email: 'team-payer@example.com' });
    const browser = browserSignedInAs(app, owner);
    const team = ZWorkspaceSummarySchema.parse((await browser.json('/api/workspaces', { method: 'POST', json: { name: 'Paid team' } })).body);
    expect((await browser.json('/api/workspaces/current', { method: 'PUT', json: { workspaceId: team.id } })).status).toBe(200);
    const checkout = await browser.json('/api/billing/checkout', { method: 'POST', json: { planId: 'pro_monthly', interval: 'monthly' } });
    expect(checkout.status).toBe(200);
    const sessionId = ZBillingRedirectResponseSchema.parse(checkout.body).url.split('/').pop() ?? '';
    expect((await standin.pay(sessionId)).statuses).toEqual([200, 200, 200]);
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'pro_monthly', status: 'active' });
    // The owner's personal workspace is still on Free.
    expect((await browser.json('/api/workspaces/current', { method: 'PUT', json: { workspaceId: owner.id } })).status).toBe(200);
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'free' });

    const admin = await createSignedInCreator(app.deps, { email: 'team-admin@example.com' });
    await app.deps.db
      .insertInto('workspace_members')
      .values({ workspace_id: team.id, creator_id: admin.id, role: 'admin', invited_by: owner.id, created_at: Date.now() })
      .execute();
    const adminBrowser = browserSignedInAs(app, admin);
    expect((await adminBrowser.json('/api/workspaces/current', { method: 'PUT', json: { workspaceId: team.id } })).status).toBe(200);
    expect(await subscriptionOf(adminBrowser)).toMatchObject({ plan_id: 'pro_monthly' });
    const refused = await adminBrowser.json('/api/billing/portal', { method: 'POST' });
    expect(refused).toMatchObject({ status: 403, body: { error: "Only the workspace's owners can do this" } });

    const events = await app.deps.db
      .selectFrom('audit_events')
      .select(['type', 'actor_creator_id', 'details'])
      .where('workspace_id', '=', team.id)
      .where('type', '=', 'plan.changed')
      .execute();
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.actor_creator_id === null)).toBe(true);
    expect(events.map((e) => e.details)).toContainEqual(expect.stringMatching(/^Plan Pro, active \(was Free, active\)$/));
  });

  it.skipIf(!available)('refuses the portal to a creator Stripe does not know yet', async () => {
    const browser = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'portal-less@example.com' }));
    const res = await browser.json('/api/billing/portal', { method: 'POST' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'no_billing_account' });
  });

  it.skipIf(!available)('checks the signature: a valid one applies, a wrong secret, an edited body or a stale timestamp answer 400 and apply nothing', async () => {
    const { browser, customer } = await customerCreator('signatures@example.com');
    const event = standin.event('customer.subscription.created', stripeSubscription({ id: 'sub_signatures', customer, status: 'active' }));
    const payload = JSON.stringify(event);

    const wrongSecret = await standin.send(event, { secret: 'whsec_someone_else' });
    expect(wrongSecret.status).toBe(400);
    const edited = await fetch(standin.webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': standin.sign(payload) },
      body: payload.replace('"active"', '"trialing"'),
    });
    expect(edited.status).toBe(400);
    const stale = await standin.send(event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(400);
    const unsigned = await fetch(standin.webhookUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: payload });
    expect(unsigned.status).toBe(400);
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'free' });
    expect(await app.deps.db.selectFrom('billing_events').select('id').where('id', '=', event.id).execute()).toHaveLength(0);

    const valid = await standin.send(event, { timestamp: Math.floor(Date.now() / 1000) - 290 });
    expect(valid.status).toBe(200);
    expect(JSON.parse(valid.body)).toEqual({ received: true, outcome: 'applied' });
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'pro_monthly', status: 'active' });
  });

  it.skipIf(!available)('applies a replayed event once, and one of five concurrent deliveries of the same event', async () => {
    const { browser, customer } = await customerCreator('replay@example.com');
    const created = standin.event('customer.subscription.created', stripeSubscription({ id: 'sub_replay', customer, status: 'active' }));
    expect(JSON.parse((await standin.send(created)).body)).toMatchObject({ outcome: 'applied' });
    expect(JSON.parse((await standin.send(created)).body)).toMatchObject({ outcome: 'duplicate' });

    const failed = standin.event('invoice.payment_failed', {
      id: 'in_replay',
      object: 'invoice',
      customer,
      parent: { subscription_details: { subscription: 'sub_replay' } },
      lines: { data: [] },
    });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => standin.send(failed)));
    expect(outcomes.map((o) => o.status)).toEqual([200, 200, 200, 200, 200]);
    expect(outcomes.filter((o) => JSON.parse(o.body).outcome === 'applied')).toHaveLength(1);
    const rows = await app.deps.db.selectFrom('billing_events').select('id').where('id', 'in', [created.id, failed.id]).execute();
    expect(rows).toHaveLength(2);
    // past_due keeps Pro through the grace period, counted from the failed payment.
    const pastDue = await subscriptionOf(browser);
    expect(pastDue).toMatchObject({ plan_id: 'pro_monthly', status: 'past_due' });
    expect(Date.parse(pastDue.grace_period_end ?? '')).toBe(failed.created * 1000 + PAYMENT_GRACE_DAYS * DAY_MS);

    const paid = standin.event(
      'invoice.paid',
      { id: 'in_replay', object: 'invoice', customer, parent: { subscription_details: { subscription: 'sub_replay' } }, lines: { data: [] } },
      failed.created + 1,
    );
    expect((await standin.send(paid)).status).toBe(200);
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'pro_monthly', status: 'active', grace_period_end: null });
  });

  it.skipIf(!available)('never revives a cancelled plan: deleted delivered before an older updated', async () => {
    const { browser, customer } = await customerCreator('order@example.com');
    const t = Math.floor(Date.now() / 1000);
    const created = standin.event('customer.subscription.created', stripeSubscription({ id: 'sub_order', customer, status: 'active' }), t - 20);
    const updated = standin.event('customer.subscription.updated', stripeSubscription({ id: 'sub_order', customer, status: 'active', cancelAtPeriodEnd: true }), t - 10);
    const deleted = standin.event('customer.subscription.deleted', stripeSubscription({ id: 'sub_order', customer, status: 'canceled' }), t - 5);
    for (const event of [deleted, created, updated]) expect((await standin.send(event)).status).toBe(200);
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'free', status: 'cancelled', cancel_at_period_end: false });
    // Even an event stamped in the same second as the deletion does not bring the plan back.
    const sameSecond = standin.event('customer.subscription.updated', stripeSubscription({ id: 'sub_order', customer, status: 'active' }), t - 5);
    expect(JSON.parse((await standin.send(sameSecond)).body)).toMatchObject({ outcome: 'ignored' });
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'free', status: 'cancelled' });
  });

  it.skipIf(!available)('follows a Stripe trial and its end', async () => {
    const { browser, customer } = await customerCreator('stripe-trial@example.com');
    const t = Math.floor(Date.now() / 1000);
    const trialEnd = t + 14 * 86_400;
    await standin.send(standin.event('customer.subscription.created', stripeSubscription({ id: 'sub_trial', customer, status: 'trialing', trialEnd }), t - 3));
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'pro_monthly', status: 'trialing', trial_end: new Date(trialEnd * 1000).toISOString() });
    expect(
      (await standin.send(standin.event('customer.subscription.trial_will_end', stripeSubscription({ id: 'sub_trial', customer, status: 'trialing', trialEnd }), t - 2))).status,
    ).toBe(200);
    await standin.send(standin.event('customer.subscription.updated', stripeSubscription({ id: 'sub_trial', customer, status: 'active' }), t - 1));
    expect(await subscriptionOf(browser)).toMatchObject({ plan_id: 'pro_monthly', status: 'active', trial_end: null, trial_available: false });
  });

  it.skipIf(!available)('starts the 14-day Pro trial once per creator', async () => {
    const browser = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'trial@example.com' }));
    const started = await browser.json('/api/billing/trial', { method: 'POST' });
    expect(started.status).toBe(201);
    const { subscription } = ZTrialResponseSchema.parse(started.body);
    expect(subscription).toMatchObject({ plan_id: 'pro_monthly', status: 'trialing', trial_available: false });
    expect(Date.parse(subscription.trial_end ?? '')).toBeGreaterThan(Date.now() + 13.9 * DAY_MS);
    const again = await browser.json('/api/billing/trial', { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'trial_used', error: 'Your free trial has already been used.' });
  });

  it.skipIf(!available)('refuses a webhook from another origin’s page like any write, and a checkout of a plan that is not sold', async () => {
    const browser = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'origin@example.com' }));
    const foreign = await browser.json('/api/billing/checkout', {
      method: 'POST',
      json: { planId: 'pro_monthly', interval: 'monthly' },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const free = await browser.json('/api/billing/checkout', { method: 'POST', json: { planId: 'free', interval: 'monthly' } });
    expect(free.status).toBe(400);
  });
});

describe('billing without Stripe keys', () => {
  let app: TTestApp;
  beforeAll(async () => {
    app = await startTestApp({ startWorker: false });
  });
  afterAll(async () => {
    await app.close();
  });

  it('shows the plans and usage, answers checkout, portal and webhooks 503, and still starts the trial', async () => {
    const browser = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'keyless@example.com' }));
    expect(ZSubscriptionResponseSchema.parse((await browser.json('/api/billing/subscription')).body)).toMatchObject({
      billing_configured: false,
      subscription: { plan_id: 'free' },
    });
    expect((await browser.json('/api/billing/usage')).status).toBe(200);
    for (const path of ['/api/billing/checkout', '/api/billing/portal']) {
      const res = await browser.json(path, { method: 'POST', json: { planId: 'pro_monthly', interval: 'monthly' } });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ success: false, error: 'Billing is not configured on this server', code: 'billing_not_configured' });
    }
    const webhook = await fetch(`${app.url}/api/billing/webhook`, { method: 'POST', headers: { 'Stripe-Signature': 't=1,v1=00' }, body: '{}' });
    expect(webhook.status).toBe(503);
    expect((await browser.json('/api/billing/trial', { method: 'POST' })).status).toBe(201);
  });
});

describe('billing when the database is down', () => {
  it('answers a webhook 5xx so Stripe delivers it again', async () => {
    const standin = await startStripeStandin();
    const app = await startTestApp({ startWorker: false, config: { billing: standinBillingConfig(standin) } });
    standin.webhookUrl = `${app.url}/api/billing/webhook`;
    try {
      await app.deps.db.destroy();
      const res = await standin.send(standin.event('customer.subscription.updated', stripeSubscription({ id: 'sub_down', customer: 'cus_down', status: 'active' })));
      expect(res.status).toBeGreaterThanOrEqual(500);
    } finally {
      await app.close().catch(() => {});
      await standin.close();
    }
  });
});
