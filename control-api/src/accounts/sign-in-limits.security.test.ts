/**
 * Sign-in guessing (checklist 59): the limits are taken before the password check and given back
 * when it is right, so parallel guesses cannot outrun them; one check per account runs at a time;
 * one address gets a fair share of the hash queue, never all of it (site unlocks wait in the same
 * queue); and failures back off per (account, address), so strangers' wrong guesses never lock the
 * owner out. The same in memory and with the limits in Redis shared by two API processes.
 * Password checks are counted (and held, to fill the queue) at the argon2 library.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { createLogger } from '../logger.ts';
import { createRedisLimiterStore } from '../access/redis-limiter-store.ts';
import { createFakeClock, startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite } from '@dropsite/testkit/control-api/site-fixtures';
import { createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { deleteRedisKeys, isRedisAvailable, randomRedisPrefix, TEST_REDIS_URL } from '@dropsite/testkit/control-api/redis';
import { isDialectAvailable, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { passwordHashLoad, PASSWORD_HASH_LIMITS } from '../sites/password-hash.ts';

const argon2 = vi.hoisted(() => ({
  verifications: 0,
  /** While set, every check waits for it (the queue fills up as under a flood). */
  hold: undefined as Promise<void> | undefined,
}));

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...actual,
    verify: async (...args: Parameters<typeof actual.verify>) => {
      argon2.verifications++;
      await argon2.hold;
      return actual.verify(...args);
    },
  };
});

const DEFAULTS = loadConfig({});
const PASSWORD = 'correct horse battery';
const HOUR = 3_600_000;

interface TReply {
  status: number;
  error?: string;
  retryAfter: number;
}

async function signIn(app: TTestApp, address: string, email: string, password: string): Promise<TReply> {
  const res = await createBrowser(app, { address }).json<{ error?: string }>('/api/auth/sign-in', { method: 'POST', json: { email, password } });
  return { status: res.status, error: res.body?.error, retryAfter: Number(res.headers.get('retry-after') ?? 0) };
}

/** How many password checks `work` caused. */
async function countChecks(work: () => Promise<unknown>): Promise<number> {
  const before = argon2.verifications;
  await work();
  return argon2.verifications - before;
}

describe('sign-in limits (in memory, the shipped account limits)', () => {
  let app: TTestApp;
  const clock = createFakeClock();

  beforeAll(async () => {
    // Only the account limits are under test: the per-address request limits are out of the way.
    app = await startTestApp({ clock, startWorker: false, config: { trustProxy: 1, rateLimits: UNREACHED_RATE_LIMITS, accountLimits: DEFAULTS.accountLimits } });
    // The dummy hash unknown addresses are checked against is made on first use.
    await signIn(app, '192.0.2.250', 'warm-up@studio.example', 'whatever password');
  });
  afterAll(async () => {
    await app.close();
  });

  it('checks at most 10 of 40 parallel wrong sign-ins from one address, and the owner still signs in from another', async () => {
    await createSignedInCreator(app.deps, { email: 'owner@studio.example', password: PASSWORD });
    let replies: TReply[] = [];
    const checks = await countChecks(async () => {
      replies = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(app, '203.0.113.10', 'owner@studio.example', `guess ${i}`)));
    });
    expect(checks).toBeGreaterThanOrEqual(1);
    expect(checks).toBeLessThanOrEqual(10);
    // Every guess was answered: the checked ones as wrong, the others told to wait.
    expect(replies.filter((r) => r.status === 401)).toHaveLength(checks);
    for (const refused of replies.filter((r) => r.status !== 401)) {
      expect(refused.status).toBe(429);
      expect(refused.error).toBe('Too many sign-in attempts. Please try again later.');
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    }

    // The owner, from another address, gets in at once.
    expect((await signIn(app, '198.51.100.10', 'owner@studio.example', PASSWORD)).status).toBe(200);
    clock.advance(2 * HOUR);
  });

  it('never locks the owner out: strangers past the account limit back off from their first failure, the owner still gets in', async () => {
    await createSignedInCreator(app.deps, { email: 'famous@studio.example', password: PASSWORD });
    // Twelve addresses guess one after another, two each: the account's 10 failures an hour are spent.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      for (let attempt = 0; attempt < 2; attempt++) statuses.push((await signIn(app, `203.0.113.${100 + i}`, 'famous@studio.example', `wrong ${i}.${attempt}`)).status);
    }
    // Before the limit each address has a few free failures; past it, one, then it waits.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(-4)).toEqual([401, 429, 401, 429]);
    const held = await signIn(app, '203.0.113.111', 'famous@studio.example', PASSWORD);
    expect(held.status).toBe(429);
    expect(held.retryAfter).toBeGreaterThanOrEqual(1);

    // The owner, who has not failed from their address, is checked and gets in; so does one who mistyped once.
    expect((await signIn(app, '198.51.100.20', 'famous@studio.example', PASSWORD)).status).toBe(200);
    const typo = await signIn(app, '198.51.100.21', 'famous@studio.example', 'correct horse');
    expect(typo.status).toBe(401);
    const after = await signIn(app, '198.51.100.21', 'famous@studio.example', PASSWORD);
    expect(after.status).toBe(429);
    clock.advance(after.retryAfter * 1000);
    expect((await signIn(app, '198.51.100.21', 'famous@studio.example', PASSWORD)).status).toBe(200);
    clock.advance(2 * HOUR);
  });

  it('gives one address a share of the password checks, so bystanders’ site unlocks are still checked during its flood', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const load = () => passwordHashLoad().running + passwordHashLoad().waiting;
    let release = () => {};
    argon2.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    let answered = 0;
    let floodChecks = 0;
    let flood: Promise<TReply[]> = Promise.resolve([]);
    let bystander: Promise<{ status: number }> = Promise.resolve({ status: 0 });
    try {
      // 90 sign-ins at once from one address, each for an account of its own: checks pile up while held.
      flood = Promise.all(
        Array.from({ length: 90 }, (_, i) =>
          signIn(app, '203.0.113.200', `flood${i}@studio.example`, 'a guess').then((reply) => {
            answered++;
            return reply;
          }),
        ),
      );
      // Every one of them is answered or waiting for its check.
      await expect.poll(() => answered + load(), { timeout: 30_000 }).toBe(90);
      floodChecks = load();
      // A bystander's unlock from another address joins the queue (or is turned away).
      let isBystanderAnswered = false;
      bystander = createBrowser(app, { address: '198.51.100.30' })
        .json(`/api/sites/${site.slug}/unlock`, { method: 'POST', json: { password: PASSWORD } })
        .finally(() => {
          isBystanderAnswered = true;
        });
      await expect.poll(() => isBystanderAnswered || load() > floodChecks, { timeout: 30_000 }).toBe(true);
    } finally {
      argon2.hold = undefined;
      release();
    }
    expect((await bystander).status).toBe(200);
    expect(floodChecks).toBeLessThanOrEqual(PASSWORD_HASH_LIMITS.perClient);
    const replies = await flood;
    expect(replies.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    expect(replies.filter((r) => r.status === 429).every((r) => r.retryAfter >= 1)).toBe(true);
    expect(passwordHashLoad()).toEqual({ running: 0, waiting: 0 });
    clock.advance(2 * HOUR);
  });
});

const redisAvailable = await isRedisAvailable();
const postgresAvailable = await isDialectAvailable('postgres');

describe.skipIf(!redisAvailable || !postgresAvailable)('sign-in limits shared by two API processes (Redis and PostgreSQL)', () => {
  const clock = createFakeClock();
  const prefix = randomRedisPrefix();
  let database: ReturnType<typeof testAppDatabase>;
  const apps: TTestApp[] = [];

  beforeAll(async () => {
    database = testAppDatabase('postgres', 'sign_in_limits');
    for (let i = 0; i < 2; i++) {
      apps.push(
        await startTestApp({
          clock,
          startWorker: false,
          config: { ...database.config, trustProxy: 1, rateLimits: UNREACHED_RATE_LIMITS, accountLimits: DEFAULTS.accountLimits },
          limiterStore: await createRedisLimiterStore({ redisUrl: TEST_REDIS_URL, clock, log: createLogger('silent'), prefix }),
        }),
      );
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.drop();
    await deleteRedisKeys(prefix);
  });

  it('checks at most 10 of 40 parallel wrong sign-ins sent to both processes, and the owner still signs in from another address', async () => {
    await createSignedInCreator(apps[0]!.deps, { email: 'shared-owner@studio.example', password: PASSWORD });
    await signIn(apps[1]!, '192.0.2.251', 'warm-up@studio.example', 'whatever password');
    let replies: TReply[] = [];
    const checks = await countChecks(async () => {
      replies = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(apps[i % 2]!, '203.0.113.10', 'shared-owner@studio.example', `guess ${i}`)));
    });
    expect(checks).toBeGreaterThanOrEqual(1);
    expect(checks).toBeLessThanOrEqual(10);
    expect(replies.filter((r) => r.status === 401)).toHaveLength(checks);
    expect(replies.filter((r) => r.status !== 401).every((r) => r.status === 429 && r.retryAfter >= 1)).toBe(true);

    // Past the account's limit (guessed on both processes), a stranger waits after one failure; the owner gets in on either.
    for (let i = 0; i < 12; i++) await signIn(apps[i % 2]!, `203.0.113.${50 + i}`, 'shared-owner@studio.example', `wrong ${i}`);
    expect((await signIn(apps[0]!, '203.0.113.61', 'shared-owner@studio.example', 'wrong again')).status).toBe(429);
    expect((await signIn(apps[1]!, '198.51.100.10', 'shared-owner@studio.example', PASSWORD)).status).toBe(200);
    expect((await signIn(apps[0]!, '198.51.100.11', 'shared-owner@studio.example', PASSWORD)).status).toBe(200);
  });
});
