/**
 * Two API processes behind one balancer (two runtimes with their own servers, one Redis, one
 * PostgreSQL database): a client's per-address limit is one limit whichever process answers, and a
 * visitor's view sent to both at the same instant counts once. And while Redis is down, password
 * guessing is refused with 503 rather than let through, while ordinary reads are still answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { createFakeClock, startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { isDialectAvailable, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { deleteRedisKeys, isRedisAvailable, randomRedisPrefix, startRedisProxy, TEST_REDIS_URL } from '@dropsite/testkit/control-api/redis';
import { createRedisLimiterStore } from './redis-limiter-store.ts';

const redisAvailable = await isRedisAvailable();
const postgresAvailable = await isDialectAvailable('postgres');
const log = createLogger('silent');

describe.skipIf(!redisAvailable || !postgresAvailable)('limits shared by two API processes (Redis and PostgreSQL)', () => {
  const clock = createFakeClock();
  const prefix = randomRedisPrefix();
  let database: ReturnType<typeof testAppDatabase>;
  let apps: TTestApp[] = [];
  let site: TSeededSite;

  beforeAll(async () => {
    database = testAppDatabase('postgres', 'shared_limits');
    for (let i = 0; i < 2; i++) {
      apps.push(
        await startTestApp({
          clock,
          startWorker: false,
          config: { ...database.config, trustProxy: 1, rateLimits: { ...UNREACHED_RATE_LIMITS, readsPerMinute: 4 } },
          limiterStore: await createRedisLimiterStore({ redisUrl: TEST_REDIS_URL, clock, log, prefix }),
        }),
      );
    }
    site = await seedSite(apps[0]!);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    apps = [];
    await database?.drop();
    await deleteRedisKeys(prefix);
  });

  /** A request from `address` to the app, as the edge would forward it. */
  const send = (app: TTestApp, path: string, address: string, init: { method?: string; json?: unknown; cookie?: string } = {}) =>
    fetch(`${app.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        'x-forwarded-for': address,
        ...(init.method && init.method !== 'GET' ? { origin: app.url } : {}),
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.cookie ? { cookie: init.cookie } : {}),
      },
      body: init.json === undefined ? null : JSON.stringify(init.json),
    });

  it('limits a client address once across both processes, with the same 429 and Retry-After', async () => {
    const path = `/api/engagement/state?projectId=${site.project.id}`;
    const replies = [];
    for (let i = 0; i < 6; i++) replies.push(await send(apps[i % 2]!, path, '203.0.113.20'));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = replies[4]!;
    expect(refused.headers.get('retry-after')).toBe('15');
    expect(await refused.json()).toMatchObject({ code: 'rate_limited', error: 'Too many requests. Please wait a moment and try again.' });
    // Another address is not affected, on either process.
    expect((await send(apps[1]!, path, '203.0.113.21')).status).toBe(200);
    // Fifteen seconds later one more request is allowed, whichever process gets it.
    clock.advance(15_000);
    expect((await send(apps[1]!, path, '203.0.113.20')).status).toBe(200);
    expect((await send(apps[0]!, path, '203.0.113.20')).status).toBe(429);
  });

  it('counts a visitor’s view once when both processes receive it at the same instant', async () => {
    const visitor = createBrowser(apps[0]!, { address: '198.51.100.30' });
    await visitor.json(`/api/engagement/state?projectId=${site.project.id}`); // the visitor cookie
    const cookie = visitor.cookieHeader();
    const fileId = site.files[0]!.id;
    // Each beacon from its own address (a phone moving between networks), so the per-address limit stays out of it.
    const beacons = (round: number) =>
      Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          send(apps[i % 2]!, '/api/analytics/view', `198.51.${100 + round}.${40 + i}`, { method: 'POST', json: { projectId: site.project.id, fileId }, cookie }),
        ),
      );
    const first = await beacons(1);
    expect(first.map((r) => r.status)).toEqual(Array(6).fill(200));
    const counted = await Promise.all(first.map(async (r) => ((await r.json()) as { counted: boolean }).counted));
    expect(counted.filter(Boolean)).toHaveLength(1);

    // Once the batches are written, neither process counts it again within the window.
    for (const app of apps) await app.deps.analytics.flush();
    const again = await beacons(2);
    expect(await Promise.all(again.map(async (r) => ((await r.json()) as { counted: boolean }).counted))).toEqual(Array(6).fill(false));
    const rows = await apps[0]!.deps.db
      .selectFrom('analytics_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', site.project.id)
      .where('type', '=', 'view')
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(1);
  });
});

describe.skipIf(!redisAvailable)('limits while Redis is down', () => {
  let app: TTestApp;
  const prefix = randomRedisPrefix();
  let cutRedis: () => Promise<void>;

  beforeAll(async () => {
    const proxy = await startRedisProxy();
    cutRedis = proxy.cut;
    const clock = createFakeClock();
    app = await startTestApp({
      clock,
      startWorker: false,
      config: { trustProxy: 1 },
      limiterStore: await createRedisLimiterStore({ redisUrl: proxy.url, clock, log, prefix, commandTimeoutMs: 200 }),
    });
  });
  afterAll(async () => {
    await app.close();
    await deleteRedisKeys(prefix);
  });

  it('answers sign-ins and password guesses 503 with Retry-After (never unlimited), and engagement reads as usual', async () => {
    const site = await seedSite(app, { password: 'the right one' });
    const open = await seedSite(app);
    const browser = createBrowser(app, { address: '203.0.113.50' });
    const signIn = () => browser.json('/api/auth/sign-in', { method: 'POST', json: { email: 'someone@studio.example', password: 'a guess at it' } });
    const unlock = () => browser.json(`/api/sites/${site.slug}/unlock`, { method: 'POST', json: { password: 'a guess at it' } });
    expect((await signIn()).status).toBe(401);
    expect((await unlock()).status).toBe(401);

    await cutRedis();
    for (const attempt of [signIn, unlock]) {
      const refused = await attempt();
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.body).toMatchObject({ code: 'service_unavailable' });
    }
    // Reads are limited per process meanwhile, and answered.
    expect((await browser.json(`/api/engagement/state?projectId=${open.project.id}`)).status).toBe(200);
  });
});
