/**
 * In-memory token buckets: per client address, per site, per destination. They work without
 * Redis (a Nextcloud lesson: limits silently off without a cache backend), so each API process
 * limits on its own; with N processes behind a balancer a client gets at most N times the rate.
 */
import type { Clock } from '../deps.ts';
import { AppError } from '../http/app-error.ts';
import { createQuota, type TRateLimitDecision } from './quota.ts';

export type { TRateLimitDecision } from './quota.ts';

export interface RateLimiter {
  /** Takes one token for the key, or says how long to wait. */
  take(key: string): TRateLimitDecision;
  /** Whether a token is available, without taking it. */
  peek(key: string): TRateLimitDecision;
  /** Gives back a token taken for a request that turned out not to count (up to the bucket's size). */
  refund(key: string): void;
  /** Buckets held (for tests and health). */
  size(): number;
}

/** `perMinute` requests per minute with bursts of up to `burst` (default: the same number): a quota of one unit a request. */
export function createRateLimiter(options: { perMinute: number; burst?: number; clock: Clock }): RateLimiter {
  const capacity = Math.max(1, options.burst ?? options.perMinute);
  const quota = createQuota({ capacity, windowMs: (capacity / options.perMinute) * 60_000, clock: options.clock });
  return {
    take(key) {
      const decision = quota.peek(key);
      if (decision.allowed) quota.take(key);
      return decision;
    },
    peek: (key) => quota.peek(key),
    refund: (key) => quota.refund(key),
    size: () => quota.size(),
  };
}

export const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait a moment and try again.';

/** The 429 for a refused decision. */
export function rateLimitedError(decision: TRateLimitDecision, message = RATE_LIMITED_MESSAGE): AppError {
  return new AppError('rate_limited', message, { headers: { 'Retry-After': String(decision.retryAfterSeconds) } });
}

/** Takes a token from each limiter (stopping at the first refusal) or throws the 429. */
export function enforceRateLimits(checks: ReadonlyArray<readonly [RateLimiter, string]>, message?: string): void {
  for (const [limiter, key] of checks) {
    const decision = limiter.take(key);
    if (!decision.allowed) throw rateLimitedError(decision, message);
  }
}
