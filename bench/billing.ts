/**
 * Stripe webhooks: 10,000 signed deliveries to POST /api/billing/webhook, a realistic mix of
 * subscription lives (checkout completed, subscription created and updated, invoices paid and
 * failed, cancellations at period end, deletions), 10 % of them delivered twice and 5 % out of
 * order (swapped with the event after them), 10 subscriptions' histories delivered at once (as the engagement benchmark's 10 connections). The
 * API runs in this process on the embedded SQLite defaults and, when reachable, on PostgreSQL
 * (a throw-away schema), with Stripe's API answered by the local stand-in (checkout.session.completed
 * reads its subscription from it). Payloads are signed before the clock starts.
 *
 * Figures: events/s, p50/p99 latency, the CPU the process spent (the load generator's share
 * included, so on a busy machine the deliveries per CPU-second say what one free core would do), and a final consistency check: every subscription row in the
 * state its newest event implies, each event id stored once, each duplicate answered as one.
 * Targets (SQLite): >= 500 events/s, p99 < 50 ms, zero inconsistencies.
 *
 * Usage: node bench/billing.ts   (BENCH_EVENTS=10000, BENCH_CONCURRENCY=10, BENCH_PG_URL=…, BENCH_DIALECTS=sqlite or postgres)
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { sql } from 'kysely';
import { freeSubscriptionRow } from '@dropsite/control-api';
import { startStripeStandin, STANDIN_PRICES, stripeStandinEnv, type TStandinEvent, type TStripeStandin } from '@dropsite/testkit/control-api/stripe-standin';
import { BENCH_PG_URL, isPostgresReachable } from './load-harness.ts';
import { printFigures, startEmbeddedApp } from './lib.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').toLowerCase();
const DUPLICATE_SHARE = 0.1;
const OUT_OF_ORDER_SHARE = 0.05;
const DAY_S = 86_400;

type TImplied = { status: 'active' | 'past_due' | 'cancelled'; plan: string };

interface TDelivery {
  customer: string;
  eventId: string;
  payload: string;
  signature: string;
}

interface THistory {
  customer: string;
  creatorId: string;
  subscriptionId: string;
  plan: string;
  events: Array<{ event: TStandinEvent; implied: TImplied }>;
}

/** A deterministic pseudo-random sequence, so every run delivers the same mix. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/** One subscription's life as Stripe would send it, one second apart. */
function historyOf(standin: TStripeStandin, index: number, random: () => number, start: number): THistory {
  const customer = `cus_bench_${index}`;
  const subscriptionId = `sub_bench_${index}`;
  const business = random() < 0.25;
  const plan = business ? 'business_monthly' : 'pro_monthly';
  const price = business ? STANDIN_PRICES.business_monthly.monthly : STANDIN_PRICES.pro_monthly.monthly;
  let t = start + index * 20;
  let periodEnd = t + 30 * DAY_S;
  const subscription = (status: string, cancelAtPeriodEnd = false) => ({
    id: subscriptionId,
    object: 'subscription',
    customer,
    status,
    cancel_at_period_end: cancelAtPeriodEnd,
    trial_end: null,
    metadata: {},
    items: { object: 'list', data: [{ id: `si_${index}`, price: { id: price }, current_period_end: periodEnd }] },
  });
  const invoice = () => ({
    id: `in_${randomBytes(6).toString('hex')}`,
    object: 'invoice',
    customer,
    parent: { subscription_details: { subscription: subscriptionId } },
    lines: { data: [{ period: { end: periodEnd } }] },
  });
  const events: THistory['events'] = [];
  const add = (type: string, object: Record<string, unknown>, implied: TImplied['status']) => {
    t += 1;
    events.push({ event: standin.event(type, object, t), implied: { status: implied, plan } });
  };
  add('customer.subscription.created', subscription('active'), 'active');
  add('invoice.paid', invoice(), 'active');
  add('checkout.session.completed', { id: `cs_test_bench_${index}`, object: 'checkout.session', customer, subscription: subscriptionId, metadata: {} }, 'active');
  const renewals = 1 + Math.floor(random() * 3);
  for (let r = 0; r < renewals; r++) {
    periodEnd += 30 * DAY_S;
    if (random() < 0.3) {
      add('invoice.payment_failed', invoice(), 'past_due');
      add('customer.subscription.updated', subscription('past_due'), 'past_due');
    }
    add('invoice.paid', invoice(), 'active');
    add('customer.subscription.updated', subscription('active'), 'active');
  }
  const ending = random();
  if (ending < 0.35) {
    add('customer.subscription.updated', subscription('active', true), 'active');
    add('customer.subscription.deleted', subscription('canceled'), 'cancelled');
  } else if (ending < 0.5) {
    add('invoice.payment_failed', invoice(), 'past_due');
  }
  // What subscriptions.retrieve answers when checkout.session.completed is handled: the subscription as
  // Stripe has it at checkout (active, its first period); the later events move it on.
  periodEnd = start + index * 20 + 30 * DAY_S;
  standin.subscriptions.set(subscriptionId, { ...subscription('active'), created: start } as unknown as Parameters<typeof standin.subscriptions.set>[1]);
  return { customer, creatorId: `creator_bench_${index}`, subscriptionId, plan, events };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function runOn(label: string, extraEnv: Record<string, string>, dropSchema?: string): Promise<{ label: string; ok: boolean; rows: Array<[string, string]> }> {
  const standin = await startStripeStandin();
  const app = await startEmbeddedApp({ ...stripeStandinEnv(standin.url), DEMO_SITES: 'false', RUN_BUILDER: 'false', ...extraEnv });
  standin.webhookUrl = `${app.base}/api/billing/webhook`;
  const { db } = app.runtime.deps;
  try {
    // Creators and their Stripe customers, as a first checkout leaves them.
    const random = rng(13);
    const start = Math.floor(Date.now() / 1000) - 3600;
    const histories: THistory[] = [];
    let planned = 0;
    for (let i = 0; planned < EVENTS / (1 + DUPLICATE_SHARE); i++) {
      const history = historyOf(standin, i, random, start);
      histories.push(history);
      planned += history.events.length;
    }
    const now = Date.now();
    for (let i = 0; i < histories.length; i += 200) {
      const batch = histories.slice(i, i + 200);
      await db
        .insertInto('creators')
        .values(
          batch.map((h) => ({
            id: h.creatorId,
            email: `${h.creatorId}@bench.example`,
            name: 'Bench',
            avatar_url: '',
            external_user_id: null,
            password_hash: null,
            created_at: now,
            updated_at: now,
            email_verified_at: now,
          })),
        )
        .execute();
      // Each account's personal workspace (its id is the account's): the subscription is the workspace's.
      await db
        .insertInto('workspaces')
        .values(batch.map((h) => ({ id: h.creatorId, name: 'Bench', personal: 1, created_by: h.creatorId, created_at: now, updated_at: now })))
        .execute();
      await db
        .insertInto('subscriptions')
        .values(batch.map((h) => ({ ...freeSubscriptionRow(`row_${h.creatorId}`, h.creatorId, now), stripe_customer_id: h.customer })))
        .execute();
    }

    // Each history in delivery order: 5 % swapped with the event after them, 10 % sent twice.
    const queues: TDelivery[][] = [];
    let duplicates = 0;
    let swapped = 0;
    for (const history of histories) {
      const order = history.events.map((e) => e.event);
      for (let i = 1; i < order.length - 1; i++) {
        if (random() < OUT_OF_ORDER_SHARE) {
          [order[i], order[i + 1]] = [order[i + 1]!, order[i]!];
          swapped++;
          i++;
        }
      }
      const queue: TDelivery[] = [];
      for (const event of order) {
        const payload = JSON.stringify(event);
        const delivery = { customer: history.customer, eventId: event.id, payload, signature: standin.sign(payload) };
        queue.push(delivery);
        if (random() < DUPLICATE_SHARE) {
          // A redelivery, sometimes straight after, sometimes later in the history.
          queue.splice(queue.length + (random() < 0.5 ? 0 : 1), 0, { ...delivery, signature: standin.sign(payload) });
          duplicates++;
        }
      }
      queues.push(queue);
    }
    const total = queues.reduce((n, q) => n + q.length, 0);

    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const post = (delivery: TDelivery) =>
      new Promise<{ status: number; outcome: string }>((resolve, reject) => {
        const req = http.request(
          standin.webhookUrl,
          { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': delivery.signature, 'Content-Length': Buffer.byteLength(delivery.payload) } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const body = Buffer.concat(chunks).toString('utf8');
              resolve({ status: res.statusCode ?? 0, outcome: res.statusCode === 200 ? (JSON.parse(body) as { outcome: string }).outcome : body });
            });
          },
        );
        req.on('error', reject);
        req.end(delivery.payload);
      });

    const latencies: number[] = [];
    const outcomes = new Map<string, number>();
    const byType = new Map<string, number>();
    let failures = 0;
    let next = 0;
    const loadBefore = os.loadavg()[0]?.toFixed(1);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < queues.length) {
          const queue = queues[next++]!;
          for (const delivery of queue) {
            const t0 = performance.now();
            const { status, outcome } = await post(delivery);
            latencies.push(performance.now() - t0);
            if (status !== 200) failures++;
            outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
            if (process.env.BENCH_DEBUG) {
              const type = (JSON.parse(delivery.payload) as { type: string }).type;
              byType.set(`${type} ${outcome}`, (byType.get(`${type} ${outcome}`) ?? 0) + 1);
            }
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    agent.destroy();
    if (process.env.BENCH_DEBUG) process.stdout.write(`${JSON.stringify([...byType], null, 1)}\n`);

    // Consistency: every row in the state its newest event implies; each event stored once.
    const rows = await db
      .selectFrom('subscriptions')
      .select(['workspace_id', 'status', 'plan_id', 'stripe_subscription_id', 'last_event_at'])
      .where('workspace_id', 'like', 'creator_bench_%')
      .execute();
    const byCreator = new Map(rows.map((r) => [r.workspace_id, r]));
    let inconsistent = 0;
    for (const history of histories) {
      const newest = history.events.reduce((a, b) => (b.event.created >= a.event.created ? b : a));
      const row = byCreator.get(history.creatorId);
      const expected = { status: newest.implied.status, plan_id: history.plan, stripe_subscription_id: history.subscriptionId, last_event_at: newest.event.created * 1000 };
      if (
        !row ||
        row.status !== expected.status ||
        row.plan_id !== expected.plan_id ||
        row.stripe_subscription_id !== expected.stripe_subscription_id ||
        Number(row.last_event_at) !== expected.last_event_at
      ) {
        inconsistent++;
        if (inconsistent <= 5) process.stdout.write(`  inconsistent ${history.creatorId}: ${JSON.stringify(row)} expected ${JSON.stringify(expected)}\n`);
      }
    }
    const unique = histories.reduce((n, h) => n + h.events.length, 0);
    const stored = await db.selectFrom('billing_events').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const duplicateAnswers = outcomes.get('duplicate') ?? 0;
    if (Number(stored.n) !== unique) inconsistent++;
    if (duplicateAnswers !== duplicates) inconsistent++;

    latencies.sort((a, b) => a - b);
    const rate = total / seconds;
    const p99 = percentile(latencies, 99);
    const isSqlite = !extraEnv.DATABASE_URL;
    const ok = failures === 0 && inconsistent === 0 && (!isSqlite || (rate >= 500 && p99 < 50));
    return {
      label,
      ok,
      rows: [
        ['deliveries', `${total} (${unique} events, ${duplicates} duplicates, ${swapped} swapped out of order, ${histories.length} subscriptions)`],
        ['concurrency', `${CONCURRENCY} subscriptions' histories at once; load average before ${loadBefore}, after ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs`],
        ['events/s', `${rate.toFixed(0)}${isSqlite ? ' (target >= 500)' : ''}`],
        [
          'CPU',
          `${cpuSeconds.toFixed(1)} s for ${seconds.toFixed(1)} s of wall time (${((cpuSeconds * 1000) / total).toFixed(2)} ms per delivery, API and load generator in one process: ${(total / cpuSeconds).toFixed(0)} deliveries per CPU-second)`,
        ],
        ['p50 / p99', `${percentile(latencies, 50).toFixed(1)} ms / ${p99.toFixed(1)} ms${isSqlite ? ' (target p99 < 50 ms)' : ''}`],
        ['outcomes', [...outcomes].map(([k, v]) => `${k} ${v}`).join(', ')],
        ['non-200 answers', String(failures)],
        ['events stored', `${stored.n} (expected ${unique})`],
        ['inconsistencies', `${inconsistent} (target 0)`],
      ],
    };
  } finally {
    if (dropSchema) await sql`drop schema if exists ${sql.id(dropSchema)} cascade`.execute(db).catch(() => {});
    await app.dispose();
    await standin.close();
  }
}

const results: Array<Awaited<ReturnType<typeof runOn>>> = [];
if (DIALECTS.includes('sqlite')) results.push(await runOn('Stripe webhooks on SQLite (embedded defaults)', {}));
if (DIALECTS.includes('postgres')) {
  if (await isPostgresReachable(BENCH_PG_URL)) {
    const schema = `bench_billing_${randomBytes(4).toString('hex')}`;
    results.push(await runOn(`Stripe webhooks on PostgreSQL (${BENCH_PG_URL}?schema=${schema})`, { DATABASE_URL: `${BENCH_PG_URL}?schema=${schema}` }, schema));
  } else {
    process.stdout.write(`\nPostgreSQL at ${BENCH_PG_URL} is not reachable: skipped.\n`);
  }
}
for (const result of results) printFigures(`${result.label}: ${result.ok ? 'targets met' : 'TARGET MISSED'}`, result.rows);
