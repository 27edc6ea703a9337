/**
 * Token buckets: per client address, per site, per destination. Each limiter's buckets live in the
 * runtime's limiter store (limiter-store.ts): in this process's memory by default (a Nextcloud
 * lesson: limits must work without a cache backend), or in Redis when `REDIS_URL` is set, so that
 * every API process behind a balancer draws from the same buckets.
 */
import type { Clock } from '../clock.ts';
import { AppError } from '../http/app-error.ts';
import { createQuota, type TRateLimitDecision } from './quota.ts';

export type { TRateLimitDecision } from './quota.ts';

export interface RateLimiter {
  /** Takes one token for the key, or says how long to wait. */
  take(key: string): Promise<TRateLimitDecision>;
  /** Whether a token is available, without taking it. */
  peek(key: string): Promise<TRateLimitDecision>;
  /** Gives back a token taken for a request that turned out not to count (up to the bucket's size). */
  refund(key: string): Promise<void>;
}

/** A limiter whose buckets are in this process's memory. */
export interface TMemoryRateLimiter extends RateLimiter {
  /** Buckets held (for tests and health). */
  size(): number;
}

export interface TRateLimiterOptions {
  /** Requests per minute, refilled evenly. */
  perMinute: number;
  /** The most taken at once (default: `perMinute`). */
  burst?: number;
}

/** The bucket of a limiter: `capacity` tokens, refilled over `windowMs`. */
export function bucketShape(options: TRateLimiterOptions): { capacity: number; windowMs: number } {
  const capacity = Math.max(1, options.burst ?? options.perMinute);
  return { capacity, windowMs: (capacity / options.perMinute) * 60_000 };
}

/** `perMinute` requests per minute with bursts of up to `burst` (default: the same number), in memory: a quota of one unit a request. */
export function createRateLimiter(options: TRateLimiterOptions & { clock: Clock }): TMemoryRateLimiter {
  const quota = createQuota({ ...bucketShape(options), clock: options.clock });
  return {
    async take(key) {
      const decision = quota.peek(key);
      if (decision.allowed) quota.take(key);
      return decision;
    },
    peek: async (key) => quota.peek(key),
    refund: async (key) => quota.refund(key),
    size: () => quota.size(),
  };
}

export const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait a moment and try again.';

/** The 429 for a refused decision. */
export function rateLimitedError(decision: TRateLimitDecision, message = RATE_LIMITED_MESSAGE): AppError {
  return new AppError('rate_limited', message, { headers: { 'Retry-After': String(decision.retryAfterSeconds) } });
}

/** Takes a token from each limiter (stopping at the first refusal) or throws the 429. */
export async function enforceRateLimits(checks: ReadonlyArray<readonly [RateLimiter, string]>, message?: string): Promise<void> {
  for (const [limiter, key] of checks) {
    const decision = await limiter.take(key);
    if (!decision.allowed) throw rateLimitedError(decision, message);
  }
}
