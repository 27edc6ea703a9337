/**
 * In-memory token buckets: per client address, per site, per destination. They work without
 * Redis (a Nextcloud lesson: limits silently off without a cache backend), so each API process
 * limits on its own; with N processes behind a balancer a client gets at most N times the rate.
 */
import type { Clock } from '../deps.ts';
import { AppError } from '../http/app-error.ts';

export interface TRateLimitDecision {
  allowed: boolean;
  /** Whole seconds until the next request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

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

interface TBucket {
  tokens: number;
  updatedAt: number;
}

/** Buckets past this count are swept of full (idle) ones; past twice it, the oldest go. */
const SWEEP_THRESHOLD = 10_000;
/** New keys between sweeps, so sweeping stays amortised O(1) per request even under a flood of addresses. */
const SWEEP_EVERY = 1000;

/** `perMinute` requests per minute with bursts of up to `burst` (default: the same number). */
export function createRateLimiter(options: { perMinute: number; burst?: number; clock: Clock }): RateLimiter {
  const capacity = Math.max(1, options.burst ?? options.perMinute);
  const refillPerMs = options.perMinute / 60_000;
  const buckets = new Map<string, TBucket>();
  let newKeysSinceSweep = 0;

  const refill = (key: string, now: number): TBucket => {
    const bucket = buckets.get(key);
    if (!bucket) return { tokens: capacity, updatedAt: now };
    const elapsed = Math.max(0, now - bucket.updatedAt);
    return { tokens: Math.min(capacity, bucket.tokens + elapsed * refillPerMs), updatedAt: now };
  };

  const waitFor = (tokens: number): number => Math.max(1, Math.ceil((1 - tokens) / refillPerMs / 1000));

  const sweep = (now: number) => {
    newKeysSinceSweep = 0;
    for (const [key, bucket] of buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * refillPerMs >= capacity) buckets.delete(key);
    }
    // Still too many busy keys (an attack from many addresses): forget the oldest, failing open for them.
    if (buckets.size > SWEEP_THRESHOLD * 2) {
      const excess = buckets.size - SWEEP_THRESHOLD;
      let removed = 0;
      for (const key of buckets.keys()) {
        if (removed++ >= excess) break;
        buckets.delete(key);
      }
    }
  };

  return {
    take(key) {
      const now = options.clock.now();
      const bucket = refill(key, now);
      if (bucket.tokens < 1) {
        buckets.set(key, bucket);
        return { allowed: false, retryAfterSeconds: waitFor(bucket.tokens) };
      }
      bucket.tokens -= 1;
      // Map order is insertion order: re-inserting keeps the most recently used keys last.
      if (!buckets.delete(key)) newKeysSinceSweep++;
      buckets.set(key, bucket);
      if (buckets.size > SWEEP_THRESHOLD && newKeysSinceSweep >= SWEEP_EVERY) sweep(now);
      return { allowed: true, retryAfterSeconds: 0 };
    },
    peek(key) {
      const bucket = refill(key, options.clock.now());
      return bucket.tokens < 1 ? { allowed: false, retryAfterSeconds: waitFor(bucket.tokens) } : { allowed: true, retryAfterSeconds: 0 };
    },
    refund(key) {
      const bucket = buckets.get(key);
      if (!bucket) return;
      const refilled = refill(key, options.clock.now());
      refilled.tokens = Math.min(capacity, refilled.tokens + 1);
      buckets.set(key, refilled);
    },
    size: () => buckets.size,
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
