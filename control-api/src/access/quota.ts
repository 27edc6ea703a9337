/**
 * Weighted token buckets: `capacity` units per `windowMs`, refilled evenly (e.g. 10 publishes an
 * hour, 5 GiB a day). In memory like the rate limiter, with the same bounded sweeping.
 */
import type { Clock } from '../clock.ts';

export interface TRateLimitDecision {
  allowed: boolean;
  /** Whole seconds until the next request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

export interface TQuota {
  readonly capacity: number;
  /** Whether `amount` units are available now, without taking them. */
  peek(key: string, amount?: number): TRateLimitDecision;
  /** Takes `amount` units (call after a successful peek). */
  take(key: string, amount?: number): void;
  /** Gives units back (a request refused later for a reason that is not the client's). */
  refund(key: string, amount?: number): void;
  size(): number;
}

interface TBucket {
  units: number;
  updatedAt: number;
}

const SWEEP_THRESHOLD = 10_000;

/** The answer for `amount` units from a bucket holding `units`, refilled at `refillPerMs` (shared with the Redis store). */
export function quotaDecision(units: number, amount: number, refillPerMs: number): TRateLimitDecision {
  if (units >= amount) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((amount - units) / refillPerMs / 1000)) };
}
const SWEEP_EVERY = 1000;

export function createQuota(options: { capacity: number; windowMs: number; clock: Clock }): TQuota {
  const capacity = Math.max(1, options.capacity);
  const refillPerMs = capacity / options.windowMs;
  const buckets = new Map<string, TBucket>();
  let newKeysSinceSweep = 0;

  const refill = (key: string, now: number): TBucket => {
    const bucket = buckets.get(key);
    if (!bucket) return { units: capacity, updatedAt: now };
    return { units: Math.min(capacity, bucket.units + Math.max(0, now - bucket.updatedAt) * refillPerMs), updatedAt: now };
  };

  const store = (key: string, bucket: TBucket, now: number) => {
    if (!buckets.delete(key)) newKeysSinceSweep++;
    if (bucket.units >= capacity) return;
    buckets.set(key, bucket);
    if (buckets.size > SWEEP_THRESHOLD && newKeysSinceSweep >= SWEEP_EVERY) {
      newKeysSinceSweep = 0;
      for (const [k, b] of buckets) if (b.units + (now - b.updatedAt) * refillPerMs >= capacity) buckets.delete(k);
      let excess = buckets.size - SWEEP_THRESHOLD * 2;
      for (const k of buckets.keys()) {
        if (excess-- <= 0) break;
        buckets.delete(k);
      }
    }
  };

  return {
    capacity,
    peek(key, amount = 1) {
      const bucket = refill(key, options.clock.now());
      return quotaDecision(bucket.units, amount, refillPerMs);
    },
    take(key, amount = 1) {
      const now = options.clock.now();
      const bucket = refill(key, now);
      bucket.units -= amount;
      store(key, bucket, now);
    },
    refund(key, amount = 1) {
      const now = options.clock.now();
      const bucket = refill(key, now);
      bucket.units = Math.min(capacity, bucket.units + amount);
      store(key, bucket, now);
    },
    size: () => buckets.size,
  };
}
