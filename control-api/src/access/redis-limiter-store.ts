/**
 * The limiter store on Redis (`REDIS_URL`): every API process takes from the same token buckets,
 * back-offs and view claims. Each read-modify-write is one Lua script, so two processes taking the
 * last token at the same instant cannot both get it. Buckets and back-offs are kept under
 * `<prefix>:limit:<name>:<key>` and claims under `<prefix>:claim:<name>:<key>`, each with an expiry
 * (a bucket's until it would be full again, a back-off's an hour after its last failure, a claim's
 * its window), so Redis never holds more than the limits' live state and never needs eviction.
 *
 * Times are the runtime's clock (the same instant the in-memory store would use), passed to the
 * scripts: the answers are the in-memory store's, to the millisecond. A command that fails (Redis
 * down) or takes longer than `commandTimeoutMs` (Redis stalled) is answered by the limiter's
 * `whenUnavailable` policy; without an offline queue nothing waits for a reconnection.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { BASE_WAIT_MS, FORGET_AFTER_MS, FREE_GUESS_FAILURES, MAX_WAIT_MS, createGuessBackoff, type TGuessBackoff } from './guess-backoff.ts';
import { limitsUnavailableError, type TClaim, type TLimiterStore, type TWhenUnavailable } from './limiter-store.ts';
import { quotaDecision } from './quota.ts';
import { bucketShape, createRateLimiter, type RateLimiter } from './rate-limiter.ts';
import { describeRedisUrl } from '../config/redis-url.ts';

export interface TRedisLimiterStoreOptions {
  redisUrl: string;
  clock: Clock;
  log: Logger;
  /** Namespace of every key (default `dropsite`). */
  prefix?: string;
  /** How long a limit waits for Redis before its `whenUnavailable` policy answers (default 500 ms). */
  commandTimeoutMs?: number;
}

const DEFAULT_PREFIX = 'dropsite';
const DEFAULT_COMMAND_TIMEOUT_MS = 500;
/** At most one warning per this long while Redis cannot answer. */
const WARN_EVERY_MS = 10_000;

interface TScript {
  lua: string;
  sha: string;
}

function script(lua: string): TScript {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/**
 * A token bucket: the units it holds after refilling since its last change, then `take` (only if
 * `amount` units are there) or `refund` (up to the capacity). Answers the units held before, as a
 * string (%.17g: a double read back exactly). A full bucket is deleted, like the in-memory one.
 * KEYS[1] bucket; ARGV now, capacity, refill per ms, amount, op (peek | take | refund).
 */
const BUCKET = script(`
local now = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local refillPerMs = tonumber(ARGV[3])
local amount = tonumber(ARGV[4])
local op = ARGV[5]
local units = capacity
local state = redis.call('HMGET', KEYS[1], 'u', 't')
if state[1] then
  local elapsed = now - tonumber(state[2])
  if elapsed < 0 then elapsed = 0 end
  units = math.min(capacity, tonumber(state[1]) + elapsed * refillPerMs)
end
local before = string.format('%.17g', units)
if op == 'peek' or (op == 'take' and units < amount) then return before end
if op == 'take' then units = units - amount else units = math.min(capacity, units + amount) end
if units >= capacity then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'u', string.format('%.17g', units), 't', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - units) / refillPerMs) + 1000)
end
return before
`);

/**
 * A guess back-off (guess-backoff.ts, the same rules): `wait` answers the seconds still to wait,
 * `fail` records a failure and answers the new wait. An entry an hour past its last failure is gone.
 * KEYS[1] entry; ARGV op (wait | fail | succeed), now, strict (1 | 0), free failures, base wait ms,
 * max wait ms, forget after ms.
 */
const BACKOFF = script(`
local op = ARGV[1]
local now = tonumber(ARGV[2])
if op == 'succeed' then
  redis.call('DEL', KEYS[1])
  return 0
end
local forgetAfter = tonumber(ARGV[7])
local failures, nextAt = 0, now
local state = redis.call('HMGET', KEYS[1], 'f', 'l', 'n')
if state[1] and now - tonumber(state[2]) < forgetAfter then
  failures = tonumber(state[1])
  nextAt = tonumber(state[3])
elseif op == 'wait' then
  return 0
end
if op == 'wait' then
  if nextAt > now then return math.ceil((nextAt - now) / 1000) end
  return 0
end
failures = failures + 1
local free = tonumber(ARGV[4])
if ARGV[3] == '1' then free = 1 end
local over = failures - free
local waitMs = 0
if over >= 0 then waitMs = math.min(tonumber(ARGV[6]), tonumber(ARGV[5]) * 2 ^ math.min(over, 30)) end
nextAt = math.max(nextAt, now + waitMs)
redis.call('HSET', KEYS[1], 'f', failures, 'l', ARGV[2], 'n', string.format('%.17g', nextAt))
redis.call('PEXPIRE', KEYS[1], forgetAfter)
return math.ceil((nextAt - now) / 1000)
`);

/** Deletes a claim only if it still holds this holder's token. KEYS[1] claim; ARGV token. */
const RELEASE = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

/** Connects to Redis (refusing to start when it cannot, like the build queue) and returns the store. */
export async function createRedisLimiterStore(options: TRedisLimiterStoreOptions): Promise<TLimiterStore> {
  const { clock, log } = options;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const redis = new Redis(options.redisUrl, {
    lazyConnect: true,
    // Fail at once while disconnected, and soon when Redis stalls: a limit never holds a request up.
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
  });
  let lastWarningAt = Number.NEGATIVE_INFINITY;
  const warn = (err: unknown, message: string) => {
    const now = Date.now();
    if (now - lastWarningAt < WARN_EVERY_MS) return;
    lastWarningAt = now;
    log.warn({ err }, message);
  };
  redis.on('error', (err: Error) => warn(err, 'limits: Redis connection error'));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`The shared limits cannot connect to Redis at ${describeRedisUrl(options.redisUrl)}`, { cause: error });
  }

  const run = async (code: TScript, key: string, args: ReadonlyArray<string | number>): Promise<unknown> => {
    try {
      return await redis.evalsha(code.sha, 1, key, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(code.lua, 1, key, ...args);
    }
  };

  /** The answer of Redis, or of the policy when Redis cannot give one. */
  const withPolicy = async <T>(whenUnavailable: TWhenUnavailable, name: string, shared: () => Promise<T>, local: () => Promise<T>): Promise<T> => {
    try {
      return await shared();
    } catch (error) {
      warn(error, `limits: Redis cannot answer; ${whenUnavailable === 'closed' ? 'refusing' : 'counting in this process'} (${name} and others)`);
      if (whenUnavailable === 'closed') throw limitsUnavailableError(error);
      return local();
    }
  };

  return {
    kind: 'redis',
    rateLimiter(name, limiterOptions): RateLimiter {
      const { capacity, windowMs } = bucketShape(limiterOptions);
      const refillPerMs = capacity / windowMs;
      const local = createRateLimiter({ ...limiterOptions, clock });
      const units = async (key: string, op: 'peek' | 'take' | 'refund'): Promise<number> => {
        const reply = await run(BUCKET, `${prefix}:limit:${name}:${key}`, [clock.now(), capacity, String(refillPerMs), 1, op]);
        return Number(reply);
      };
      const decide = (op: 'peek' | 'take', key: string) =>
        withPolicy(
          limiterOptions.whenUnavailable,
          name,
          async () => quotaDecision(await units(key, op), 1, refillPerMs),
          () => local[op](key),
        );
      return {
        take: (key) => decide('take', key),
        peek: (key) => decide('peek', key),
        // A refund that cannot be written is lost (the client was charged a request more); it never fails the request.
        refund: (key) =>
          units(key, 'refund').then(
            () => {},
            (error: unknown) => warn(error, `limits: a ${name} refund was not written`),
          ),
      };
    },

    guessBackoff(name, backoffOptions): TGuessBackoff {
      const local = createGuessBackoff({ clock });
      const backoff = async (key: string, op: 'wait' | 'fail' | 'succeed', strict = false): Promise<number> =>
        Number(await run(BACKOFF, `${prefix}:limit:${name}:${key}`, [op, clock.now(), strict ? 1 : 0, FREE_GUESS_FAILURES, BASE_WAIT_MS, MAX_WAIT_MS, FORGET_AFTER_MS]));
      return {
        waitSeconds: (key) =>
          withPolicy(
            backoffOptions.whenUnavailable,
            name,
            () => backoff(key, 'wait'),
            () => local.waitSeconds(key),
          ),
        fail: (key, failOptions = {}) =>
          withPolicy(
            backoffOptions.whenUnavailable,
            name,
            () => backoff(key, 'fail', failOptions.strict),
            () => local.fail(key, failOptions),
          ),
        // A right guess that cannot clear the back-off leaves it to expire; the visitor is let in all the same.
        succeed: (key) =>
          backoff(key, 'succeed').then(
            () => local.succeed(key),
            (error: unknown) => warn(error, `limits: a ${name} back-off was not cleared`),
          ),
      };
    },

    async claim(name, key, windowMs): Promise<TClaim> {
      const redisKey = `${prefix}:claim:${name}:${key}`;
      const token = randomBytes(12).toString('base64url');
      let reply: string | null;
      try {
        reply = await redis.set(redisKey, token, 'PX', Math.max(1, Math.ceil(windowMs)), 'NX');
      } catch (error) {
        warn(error, `limits: Redis cannot answer; ${name} claims are not shared meanwhile`);
        return { claimed: true, release: async () => {} };
      }
      if (reply !== 'OK') return { claimed: false, release: async () => {} };
      return {
        claimed: true,
        release: () =>
          run(RELEASE, redisKey, [token]).then(
            () => {},
            (error: unknown) => warn(error, `limits: a ${name} claim was not released`),
          ),
      };
    },

    async close() {
      if (redis.status === 'end') return;
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
