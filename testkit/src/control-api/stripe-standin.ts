/**
 * A local HTTP server that answers like Stripe's API for the calls billing makes, and signs and
 * sends webhooks to the API the way Stripe does. No network, no Stripe account.
 *
 * API calls it answers (form-encoded bodies, as the Stripe SDK sends them):
 *   POST /v1/customers                     customers.create
 *   POST /v1/checkout/sessions             checkout.sessions.create (its `url` is this server's /checkout/{id})
 *   GET  /v1/checkout/sessions/{id}        checkout.sessions.retrieve
 *   POST /v1/checkout/sessions/{id}/expire checkout.sessions.expire (an open session only; it can no longer be paid)
 *   POST /v1/billing_portal/sessions       billingPortal.sessions.create (its `url` is /portal/{id})
 *   GET  /v1/subscriptions/{id}            subscriptions.retrieve
 *   GET  /v1/subscriptions?customer=       subscriptions.list (status=all, or the not-cancelled ones)
 *   DELETE /v1/subscriptions/{id}          subscriptions.cancel (at once; sends customer.subscription.deleted)
 *   GET  /v1/events                        events.list: every event sent or recorded, newest first, filtered by
 *                                          delivery_success, types[] and created[gte], paged by starting_after
 * With `unavailable` set, every API call is answered by a dropped connection (Stripe unreachable).
 * Pages a browser opens (what Stripe's hosted pages do, reduced to one button):
 *   GET  /checkout/{id}   a 'Pay' button; paying creates the subscription, sends the signed webhooks
 *                         customer.subscription.created, invoice.paid and checkout.session.completed
 *                         to the API, then redirects to the session's success URL (its
 *                         {CHECKOUT_SESSION_ID} filled in). 'Cancel' goes to the cancel URL.
 *   GET  /health          200 once listening (for a launcher waiting on it).
 *   GET  /portal/{id}     'Cancel plan' (sends customer.subscription.updated with cancel_at_period_end)
 *                         and 'Return to Dropsite' (the portal session's return URL).
 *
 * In vitest:
 *   const standin = await startStripeStandin({ webhookUrl: `${app.url}/api/billing/webhook` });
 *   app = await startTestApp({ config: { billing: standinBillingConfig(standin) } });
 *   ... standin.requests (every API call with its idempotency key), standin.send(event), standin.close()
 * (Start the stand-in first with the webhook URL unknown, then set `standin.webhookUrl` once the app listens.)
 *
 * For the e2e server (or by hand), run it as its own process and give the API its environment:
 *   node testkit/src/control-api/stripe-standin-main.ts --port 12111 --webhook-url http://localhost:3210/api/billing/webhook
 *   API environment: stripeStandinEnv('http://127.0.0.1:12111') (STRIPE_API_URL, keys, price ids).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { TBillingInterval, TPaidPlanId } from '@dropsite/shared';
import { escapeHtml, type TBillingConfig } from '@dropsite/control-api/internals';

export const STANDIN_SECRET_KEY = 'sk_test_dropsite_standin';
export const STANDIN_WEBHOOK_SECRET = 'whsec_dropsite_standin';
export const STANDIN_PRICES: Record<TPaidPlanId, Record<TBillingInterval, string>> = {
  pro_monthly: { monthly: 'price_standin_pro_monthly', yearly: 'price_standin_pro_yearly' },
  business_monthly: { monthly: 'price_standin_business_monthly', yearly: 'price_standin_business_yearly' },
};

const DAY_S = 86_400;

export interface TStandinRequest {
  method: string;
  path: string;
  body: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

export interface TStandinSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: 'active' | 'trialing' | 'past_due' | 'canceled' | 'unpaid' | 'incomplete';
  cancel_at_period_end: boolean;
  created: number;
  trial_end: number | null;
  metadata: Record<string, string>;
  items: { object: 'list'; data: { id: string; price: { id: string; recurring: { interval: 'month' | 'year' } }; current_period_start: number; current_period_end: number }[] };
}

export interface TStandinEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: false;
  data: { object: Record<string, unknown> };
}

export interface TStripeStandin {
  url: string;
  /** Where webhooks go; may be set once the API listens. */
  webhookUrl: string;
  webhookSecret: string;
  /** Every API call received, oldest first. */
  readonly requests: TStandinRequest[];
  readonly subscriptions: Map<string, TStandinSubscription>;
  /** Every event sent or recorded, oldest first, with whether its webhook was delivered (a 2xx answer). */
  readonly events: { event: TStandinEvent; delivered: boolean }[];
  /** When true, API calls get a dropped connection, as if Stripe could not be reached. */
  unavailable: boolean;
  /** Keeps an event as made but never delivered (the webhook endpoint could not be reached); events.list names it. */
  record(event: TStandinEvent): void;
  /** An event as Stripe would make it (id `evt_…`, `created` now unless given). */
  event(type: string, object: Record<string, unknown>, created?: number): TStandinEvent;
  /** Signs (at `timestamp`, seconds, default now) and posts an event or any body to the webhook URL; answers the API's status. */
  send(event: TStandinEvent | string, options?: { timestamp?: number; secret?: string }): Promise<{ status: number; body: string }>;
  /** The Stripe-Signature header Stripe would send for a body. */
  sign(payload: string, options?: { timestamp?: number; secret?: string }): string;
  /** Pays an open Checkout Session as the 'Pay' button does: the subscription and its three webhooks. */
  pay(sessionId: string): Promise<{ subscription: TStandinSubscription; statuses: number[] }>;
  close(): Promise<void>;
}

const signer = new Stripe(STANDIN_SECRET_KEY);

function newStripeId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

function readBody(req: IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

function sendHtml(res: ServerResponse, title: string, body: string): void {
  res
    .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
    .end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>` +
        '<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#111;background:#fff}button,a.button{display:inline-block;font:inherit;padding:.6rem 1.2rem;margin:.5rem .5rem 0 0;border-radius:.4rem;border:1px solid #635bff;background:#635bff;color:#fff;text-decoration:none;cursor:pointer}a.secondary{background:#fff;color:#635bff}@media (prefers-color-scheme:dark){body{background:#111;color:#eee}a.secondary{background:#111}}</style>' +
        `</head><body><main>${body}</main></body></html>`,
    );
}

function notFound(res: ServerResponse, what: string): void {
  sendJson(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } });
}

interface TStandinCheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  customer: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  price: string;
  success_url: string;
  cancel_url: string;
  subscription: string | null;
  status: 'open' | 'complete' | 'expired';
  url: string | null;
}

function metadataOf(body: Record<string, string>, prefix: string): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    const match = key.startsWith(`${prefix}[`) ? /\[([^\]]+)\]$/.exec(key) : null;
    if (match?.[1]) metadata[match[1]] = value;
  }
  return metadata;
}

export async function startStripeStandin(options: { webhookUrl?: string; port?: number; host?: string } = {}): Promise<TStripeStandin> {
  const requests: TStandinRequest[] = [];
  const customers = new Map<string, { id: string; email: string | null; metadata: Record<string, string> }>();
  const sessions = new Map<string, TStandinCheckoutSession>();
  const portals = new Map<string, { id: string; customer: string; return_url: string }>();
  const subscriptions = new Map<string, TStandinSubscription>();
  const idempotent = new Map<string, unknown>();
  const events: { event: TStandinEvent; delivered: boolean }[] = [];
  let url = '';

  /** Notes a delivery of the event (the last one counts, as Stripe's delivery_success does). */
  const noteDelivery = (event: TStandinEvent, delivered: boolean) => {
    const known = events.find((e) => e.event.id === event.id);
    if (known) known.delivered = delivered;
    else events.push({ event, delivered });
  };

  const standin: TStripeStandin = {
    url: '',
    webhookUrl: options.webhookUrl ?? '',
    webhookSecret: STANDIN_WEBHOOK_SECRET,
    requests,
    subscriptions,
    events,
    unavailable: false,
    record(event) {
      noteDelivery(event, false);
    },
    event(type, object, created) {
      return { id: newStripeId('evt'), object: 'event', type, created: created ?? Math.floor(Date.now() / 1000), livemode: false, data: { object } };
    },
    sign(payload, signOptions = {}) {
      return signer.webhooks.generateTestHeaderString({
        payload,
        secret: signOptions.secret ?? STANDIN_WEBHOOK_SECRET,
        ...(signOptions.timestamp === undefined ? {} : { timestamp: signOptions.timestamp }),
      });
    },
    async send(event, sendOptions = {}) {
      if (!standin.webhookUrl) throw new Error('The stand-in has no webhook URL');
      const payload = typeof event === 'string' ? event : JSON.stringify(event);
      let response: Response;
      try {
        response = await fetch(standin.webhookUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Stripe-Signature': standin.sign(payload, sendOptions) },
          body: payload,
        });
      } catch (err) {
        if (typeof event !== 'string') noteDelivery(event, false);
        throw err;
      }
      if (typeof event !== 'string') noteDelivery(event, response.ok);
      return { status: response.status, body: await response.text() };
    },
    async pay(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`No such checkout session ${sessionId}`);
      if (session.status !== 'open') throw new Error(`Checkout session ${sessionId} is ${session.status}: it cannot be paid`);
      const now = Math.floor(Date.now() / 1000);
      const interval = session.price.includes('yearly') ? 'year' : 'month';
      const subscription: TStandinSubscription = {
        id: newStripeId('sub'),
        object: 'subscription',
        customer: session.customer,
        status: 'active',
        cancel_at_period_end: false,
        created: now,
        trial_end: null,
        metadata: session.metadata,
        items: {
          object: 'list',
          data: [
            {
              id: newStripeId('si'),
              price: { id: session.price, recurring: { interval } },
              current_period_start: now,
              current_period_end: now + (interval === 'year' ? 365 : 30) * DAY_S,
            },
          ],
        },
      };
      subscriptions.set(subscription.id, subscription);
      session.subscription = subscription.id;
      session.status = 'complete';
      const invoice = {
        id: newStripeId('in'),
        object: 'invoice',
        customer: session.customer,
        status: 'paid',
        parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id } },
        lines: { object: 'list', data: [{ period: { start: now, end: subscription.items.data[0]?.current_period_end ?? now } }] },
      };
      const statuses: number[] = [];
      for (const event of [
        standin.event('customer.subscription.created', { ...subscription }),
        standin.event('invoice.paid', invoice),
        standin.event('checkout.session.completed', { ...session, url: null }),
      ]) {
        statuses.push((await standin.send(event)).status);
      }
      return { subscription, statuses };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  async function answerApi(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
    if (standin.unavailable) {
      req.socket.destroy();
      return;
    }
    const body = req.method === 'POST' ? await readBody(req) : {};
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    requests.push({ method: req.method ?? 'GET', path, body, idempotencyKey, authorization: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${STANDIN_SECRET_KEY}`) {
      sendJson(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      return;
    }
    // A repeated idempotency key answers what the first request did, as Stripe does.
    const replayKey = idempotencyKey ? `${req.method} ${path} ${idempotencyKey}` : undefined;
    if (replayKey && idempotent.has(replayKey)) {
      sendJson(res, 200, idempotent.get(replayKey));
      return;
    }
    const answer = (value: unknown) => {
      if (replayKey) idempotent.set(replayKey, value);
      sendJson(res, 200, value);
    };
    if (req.method === 'POST' && path === '/v1/customers') {
      const customer = { id: newStripeId('cus'), object: 'customer', email: body.email ?? null, metadata: metadataOf(body, 'metadata') };
      customers.set(customer.id, customer);
      answer(customer);
      return;
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const customer = body.customer ?? '';
      const price = body['line_items[0][price]'] ?? '';
      if (!customers.has(customer)) return notFound(res, `customer: '${customer}'`);
      if (!price) {
        sendJson(res, 400, { error: { type: 'invalid_request_error', message: 'Missing line_items[0][price]' } });
        return;
      }
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const session: TStandinCheckoutSession = {
        id,
        object: 'checkout.session',
        mode: body.mode ?? 'payment',
        customer,
        client_reference_id: body.client_reference_id ?? null,
        metadata: { ...metadataOf(body, 'metadata'), ...metadataOf(body, 'subscription_data[metadata]') },
        price,
        success_url: body.success_url ?? '',
        cancel_url: body.cancel_url ?? '',
        subscription: null,
        status: 'open',
        url: `${url}/checkout/${id}`,
      };
      sessions.set(id, session);
      answer(session);
      return;
    }
    if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = body.customer ?? '';
      if (!customers.has(customer)) return notFound(res, `customer: '${customer}'`);
      const portal = { id: newStripeId('bps'), object: 'billing_portal.session', customer, return_url: body.return_url ?? '', url: '' };
      portal.url = `${url}/portal/${portal.id}`;
      portals.set(portal.id, portal);
      answer(portal);
      return;
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/(cs_test_\w+)(\/expire)?$/.exec(path);
    if (sessionMatch?.[1]) {
      const session = sessions.get(sessionMatch[1]);
      if (!session) return notFound(res, `checkout session: '${sessionMatch[1]}'`);
      if (req.method === 'GET' && !sessionMatch[2]) return answer(session);
      if (req.method === 'POST' && sessionMatch[2]) {
        if (session.status !== 'open') {
          sendJson(res, 400, {
            error: { type: 'invalid_request_error', message: `Only Checkout Sessions with a status in ["open"] can be expired. This one is ${session.status}.` },
          });
          return;
        }
        session.status = 'expired';
        session.url = null;
        return answer(session);
      }
    }
    const subscriptionMatch = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path);
    if ((req.method === 'GET' || req.method === 'DELETE') && subscriptionMatch?.[1]) {
      const subscription = subscriptions.get(subscriptionMatch[1]);
      if (!subscription) return notFound(res, `subscription: '${subscriptionMatch[1]}'`);
      if (req.method === 'DELETE' && subscription.status !== 'canceled') {
        subscription.status = 'canceled';
        subscription.cancel_at_period_end = false;
        // Stripe tells the webhook endpoint after answering; a refused or failed delivery is kept for events.list.
        const deleted = standin.event('customer.subscription.deleted', { ...subscription });
        setImmediate(() => void standin.send(deleted).catch(() => {}));
      }
      answer(subscription);
      return;
    }
    if (req.method === 'GET' && path === '/v1/subscriptions') {
      const customer = query.get('customer');
      const status = query.get('status');
      const data = [...subscriptions.values()]
        .filter((s) => (customer === null || s.customer === customer) && (status === 'all' || (status === null ? s.status !== 'canceled' : s.status === status)))
        .reverse();
      answer({ object: 'list', url: '/v1/subscriptions', has_more: false, data });
      return;
    }
    if (req.method === 'GET' && path === '/v1/events') {
      const deliverySuccess = query.get('delivery_success');
      const types = [...query.entries()].filter(([key]) => key === 'types' || key.startsWith('types[')).map(([, value]) => value);
      const createdGte = Number(query.get('created[gte]') ?? 0);
      const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 10)));
      let listed = [...events]
        .reverse()
        .filter((e) => deliverySuccess === null || String(e.delivered) === deliverySuccess)
        .filter((e) => types.length === 0 || types.includes(e.event.type))
        .filter((e) => e.event.created >= createdGte)
        .map((e) => e.event);
      const after = query.get('starting_after');
      if (after) listed = listed.slice(listed.findIndex((e) => e.id === after) + 1);
      answer({ object: 'list', url: '/v1/events', has_more: listed.length > limit, data: listed.slice(0, limit) });
      return;
    }
    notFound(res, `route ${req.method} ${path}`);
  }

  async function answerPage(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (path === '/health') return sendJson(res, 200, { ok: true });
    const checkout = /^\/checkout\/(cs_test_\w+)(\/pay)?$/.exec(path);
    if (checkout?.[1]) {
      const session = sessions.get(checkout[1]);
      if (!session) return notFound(res, 'checkout session');
      if (session.status === 'expired') {
        sendHtml(res, 'Expired · Stripe stand-in', '<h1>This checkout session has expired</h1><p>Nothing was charged. Go back and choose your plan again.</p>');
        return;
      }
      if (req.method === 'POST' && checkout[2]) {
        if (session.status === 'open') await standin.pay(session.id);
        res.writeHead(303, { Location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) }).end();
        return;
      }
      sendHtml(
        res,
        'Pay · Stripe stand-in',
        `<h1>Stripe stand-in checkout</h1><p>Price <code>${escapeHtml(session.price)}</code>. Nothing is charged: paying sends the webhooks Stripe would send.</p>` +
          `<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay</button>` +
          `<a class="button secondary" href="${escapeHtml(session.cancel_url)}">Cancel</a></form>`,
      );
      return;
    }
    const portal = /^\/portal\/(bps_\w+)(\/cancel)?$/.exec(path);
    if (portal?.[1]) {
      const session = portals.get(portal[1]);
      if (!session) return notFound(res, 'portal session');
      const subscription = [...subscriptions.values()].find((s) => s.customer === session.customer && s.status !== 'canceled');
      if (req.method === 'POST' && portal[2] && subscription) {
        subscription.cancel_at_period_end = true;
        await standin.send(standin.event('customer.subscription.updated', { ...subscription }));
        res.writeHead(303, { Location: session.return_url }).end();
        return;
      }
      sendHtml(
        res,
        'Billing portal · Stripe stand-in',
        '<h1>Stripe stand-in billing portal</h1>' +
          (subscription ? `<form method="post" action="/portal/${session.id}/cancel"><button type="submit">Cancel plan</button></form>` : '<p>No active subscription.</p>') +
          `<p><a class="button secondary" href="${escapeHtml(session.return_url)}">Return to Dropsite</a></p>`,
      );
      return;
    }
    notFound(res, 'page');
  }

  const server: Server = createServer((req, res) => {
    const requestUrl = new URL(req.url ?? '/', 'http://standin');
    const path = requestUrl.pathname;
    const handle = path.startsWith('/v1/') ? answerApi(req, res, path, requestUrl.searchParams) : answerPage(req, res, path);
    handle.catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { type: 'api_error', message: err instanceof Error ? err.message : String(err) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve()));
  const address = server.address() as AddressInfo;
  url = `http://${options.host ?? '127.0.0.1'}:${address.port}`;
  standin.url = url;
  return standin;
}

/** The API's billing settings pointing at a stand-in (for startTestApp's config). */
export function standinBillingConfig(standin: Pick<TStripeStandin, 'url'>, overrides: Partial<TBillingConfig> = {}): TBillingConfig {
  const api = new URL(standin.url);
  return {
    defaultPlan: 'free',
    trialsPerAddress: 1,
    stripe: {
      secretKey: STANDIN_SECRET_KEY,
      webhookSecret: STANDIN_WEBHOOK_SECRET,
      webhookToleranceSeconds: 300,
      prices: STANDIN_PRICES,
      api: { host: api.hostname, port: Number(api.port), protocol: 'http' },
      // Tests run a reconciliation pass themselves (reconcileStripeEvents).
      reconcileEveryMs: 0,
    },
    ...overrides,
  };
}

/** The environment an API process needs to use a stand-in at `standinUrl` (e.g. the e2e server). */
export function stripeStandinEnv(standinUrl: string): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: STANDIN_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
    STRIPE_API_URL: standinUrl,
    STRIPE_PRICE_PRO_MONTHLY: STANDIN_PRICES.pro_monthly.monthly,
    STRIPE_PRICE_PRO_YEARLY: STANDIN_PRICES.pro_monthly.yearly,
    STRIPE_PRICE_BUSINESS_MONTHLY: STANDIN_PRICES.business_monthly.monthly,
    STRIPE_PRICE_BUSINESS_YEARLY: STANDIN_PRICES.business_monthly.yearly,
  };
}
