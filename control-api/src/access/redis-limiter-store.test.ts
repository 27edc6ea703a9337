/**
 * The limiter store on a real Redis: the same answers as the in-memory store, atomic across
 * connections (two API processes), keys that expire, and the policy of each limit when Redis goes down.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createLogger } from '../logger.ts';
import { AppError } from '../http/app-error.ts';
import { createFakeClock } from '@dropsite/testkit/control-api/test-app';
import { deleteRedisKeys, isRedisAvailable, randomRedisPrefix, redisKeysUnder, startRedisProxy, TEST_REDIS_URL } from '@dropsite/testkit/control-api/redis';
import { createMemoryLimiterStore, type TLimiterStore } from './limiter-store.ts';
import { createRedisLimiterStore } from './redis-limiter-store.ts';
import { FREE_GUESS_FAILURES } from './guess-backoff.ts';

const available = await isRedisAvailable();
const log = createLogger('silent');

describe.skipIf(!available)('Redis limiter store', () => {
  const opened: TLimiterStore[] = [];
  const prefixes: string[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await Promise.all(prefixes.splice(0).map((prefix) => deleteRedisKeys(prefix)));
  });

  async function redisStore(clock = createFakeClock(), options: { prefix?: string; redisUrl?: string } = {}) {
    const prefix = options.prefix ?? randomRedisPrefix();
    prefixes.push(prefix);
    const store = await createRedisLimiterStore({ redisUrl: options.redisUrl ?? TEST_REDIS_URL, clock, log, prefix, commandTimeoutMs: 200 });
    opened.push(store);
    return { store, prefix, clock };
  }

  it('answers every take, peek and refund as the in-memory store does, to the second', async () => {
    const clock = createFakeClock();
    const { store } = await redisStore(clock);
    const memory = createMemoryLimiterStore(clock);
    const options = { perMinute: 6, burst: 4, whenUnavailable: 'local' } as const;
    const [shared, local] = [store.rateLimiter('reads', options), memory.rateLimiter('reads', options)];
    const steps: Array<['take' | 'peek' | 'refund', number]> = [
      ['take', 0],
      ['take', 0],
      ['peek', 0],
      ['take', 0],
      ['take', 0],
      ['take', 0],
      ['peek', 1_500],
      ['take', 8_499],
      ['take', 1],
      ['take', 0],
      ['refund', 0],
      ['take', 0],
      ['take', 3_333],
      ['peek', 60_000],
      ['take', 0],
    ];
    const answers: Array<[unknown, unknown]> = [];
    for (const [op, advance] of steps) {
      clock.advance(advance);
      for (const key of ['203.0.113.7', '198.51.100.1']) {
        if (op === 'refund') {
          await shared.refund(key);
          await local.refund(key);
        } else answers.push([await shared[op](key), await local[op](key)]);
      }
    }
    for (const [fromRedis, fromMemory] of answers) expect(fromRedis).toEqual(fromMemory);
    // It was a real test: some were refused with a wait.
    expect(answers.some(([a]) => (a as { retryAfterSeconds: number }).retryAfterSeconds === 10)).toBe(true);
  });

  it('gives the last tokens to exactly as many requests as the bucket holds, across two processes at once', async () => {
    const clock = createFakeClock();
    const first = await redisStore(clock);
    const second = await redisStore(clock, { prefix: first.prefix });
    const limiters = [first.store, second.store].map((store) => store.rateLimiter('writes', { perMinute: 5, whenUnavailable: 'local' }));
    const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => limiters[i % 2]!.take('203.0.113.9')));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfterSeconds === 12)).toBe(true);
  });

  it('keeps keys under its namespace with an expiry, and none for a full bucket', async () => {
    const { store, prefix } = await redisStore();
    const limiter = store.rateLimiter('forms', { perMinute: 10 / 60, burst: 10, whenUnavailable: 'local' });
    await limiter.take('203.0.113.7');
    const backoff = store.guessBackoff('unlock-backoff', { whenUnavailable: 'closed' });
    await backoff.fail('site\n203.0.113.7');
    await store.claim('view', 'site:file:visitor', 30 * 60_000);
    expect(await redisKeysUnder(prefix)).toEqual([
      `${prefix}:claim:view:site:file:visitor`,
      `${prefix}:limit:forms:203.0.113.7`,
      `${prefix}:limit:unlock-backoff:site\n203.0.113.7`,
    ]);
    const redis = new Redis(TEST_REDIS_URL);
    try {
      // A bucket lives until it would be full again (one of ten an hour: 6 minutes), plus a second.
      expect(await redis.pttl(`${prefix}:limit:forms:203.0.113.7`)).toBeGreaterThan(360_000);
      expect(await redis.pttl(`${prefix}:limit:forms:203.0.113.7`)).toBeLessThanOrEqual(361_000);
      // A back-off is forgotten an hour after its last failure; a claim after its window.
      expect(await redis.pttl(`${prefix}:limit:unlock-backoff:site\n203.0.113.7`)).toBeGreaterThan(3_590_000);
      expect(await redis.pttl(`${prefix}:claim:view:site:file:visitor`)).toBeGreaterThan(1_790_000);
      await limiter.refund('203.0.113.7');
      expect(await redis.exists(`${prefix}:limit:forms:203.0.113.7`)).toBe(0);
    } finally {
      redis.disconnect();
    }
  });

  it('backs off failed guesses as the in-memory back-off does, shared by two processes', async () => {
    const clock = createFakeClock();
    const first = await redisStore(clock);
    const second = await redisStore(clock, { prefix: first.prefix });
    const shared = [first.store, second.store].map((store) => store.guessBackoff('unlock-backoff', { whenUnavailable: 'closed' }));
    const local = createMemoryLimiterStore(clock).guessBackoff('unlock-backoff', { whenUnavailable: 'closed' });
    const key = 'site\n203.0.113.7';
    const waits: Array<[number, number]> = [];
    for (let i = 0; i < FREE_GUESS_FAILURES + 3; i++) {
      waits.push([await shared[i % 2]!.fail(key), await local.fail(key)]);
      waits.push([await shared[(i + 1) % 2]!.waitSeconds(key), await local.waitSeconds(key)]);
      clock.advance(700);
    }
    waits.push([await shared[0]!.fail('other\n203.0.113.7', { strict: true }), await local.fail('other\n203.0.113.7', { strict: true })]);
    for (const [fromRedis, fromMemory] of waits) expect(fromRedis).toBe(fromMemory);
    expect(waits.map(([w]) => w)).toContain(4);
    await shared[1]!.succeed(key);
    expect(await shared[0]!.waitSeconds(key)).toBe(0);
    // An hour after the last failure it starts afresh.
    clock.advance(60 * 60_000);
    expect(await shared[0]!.waitSeconds('other\n203.0.113.7')).toBe(0);
  });

  it('grants a claim once among processes until it is released', async () => {
    const first = await redisStore();
    const second = await redisStore(undefined, { prefix: first.prefix });
    const claims = await Promise.all([first.store, second.store, first.store, second.store].map((store) => store.claim('view', 'p:f:v', 60_000)));
    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
    const granted = claims.find((c) => c.claimed)!;
    await claims.find((c) => !c.claimed)!.release(); // not the holder's: changes nothing
    expect((await second.store.claim('view', 'p:f:v', 60_000)).claimed).toBe(false);
    await granted.release();
    expect((await second.store.claim('view', 'p:f:v', 60_000)).claimed).toBe(true);
  });

  it('when Redis goes down: guess limits refuse with 503 and Retry-After, load limits count in the process, claims are granted', async () => {
    const proxy = await startRedisProxy();
    const { store } = await redisStore(createFakeClock(), { redisUrl: proxy.url });
    const signIns = store.rateLimiter('sign-in-address', { perMinute: 2 / 60, burst: 2, whenUnavailable: 'closed' });
    const reads = store.rateLimiter('reads', { perMinute: 2, whenUnavailable: 'local' });
    const backoff = store.guessBackoff('unlock-backoff', { whenUnavailable: 'closed' });
    expect((await signIns.take('203.0.113.7')).allowed).toBe(true);
    await proxy.cut();

    const started = performance.now();
    const guesses = [() => signIns.peek('203.0.113.7'), () => signIns.take('203.0.113.7'), () => backoff.waitSeconds('k'), () => backoff.fail('k')];
    for (const refused of guesses) {
      const error = await refused().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(503);
      expect((error as AppError).headers).toEqual({ 'Retry-After': '5' });
    }
    // Load limits still hold, per process.
    const decisions = [await reads.take('203.0.113.7'), await reads.take('203.0.113.7'), await reads.take('203.0.113.7')];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    // Neither a refund nor a right guess fails the request.
    await signIns.refund('203.0.113.7');
    await backoff.succeed('k');
    expect((await store.claim('view', 'p:f:v', 60_000)).claimed).toBe(true);
    // Nothing waited for a reconnection.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses to start when Redis cannot be reached', async () => {
    const proxy = await startRedisProxy();
    await proxy.cut();
    await expect(createRedisLimiterStore({ redisUrl: proxy.url, clock: createFakeClock(), log })).rejects.toThrow(/cannot connect to Redis/);
  });
});
