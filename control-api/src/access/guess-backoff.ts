/**
 * Exponential back-off on failed password guesses, per (site, address). A few typos cost nothing;
 * after that each further failure doubles the wait before that address may guess on that site
 * again. A right password clears it. Kept in the runtime's limiter store like the other limits: in
 * memory (no Redis needed), or in Redis when `REDIS_URL` is set (limiter-store.ts).
 */
import type { Clock } from '../clock.ts';

export interface TGuessBackoff {
  /** Seconds this key must still wait before its next guess is checked (0: go ahead). */
  waitSeconds(key: string): Promise<number>;
  /** Records a failed guess; `strict` (the site is under attack) starts the back-off at the first failure. Returns the new wait in seconds. */
  fail(key: string, options?: { strict?: boolean }): Promise<number>;
  /** A right guess: the key starts afresh. */
  succeed(key: string): Promise<void>;
}

/** A back-off whose entries are in this process's memory. */
export interface TMemoryGuessBackoff extends TGuessBackoff {
  size(): number;
}

interface TEntry {
  failures: number;
  lastFailureAt: number;
  nextAllowedAt: number;
}

/** Failures a (site, address) may make before it has to wait. */
export const FREE_GUESS_FAILURES = 5;
export const BASE_WAIT_MS = 1000;
export const MAX_WAIT_MS = 15 * 60_000;
/** A key with no failure for this long starts afresh. */
export const FORGET_AFTER_MS = 60 * 60_000;
const SWEEP_THRESHOLD = 10_000;
const SWEEP_EVERY = 1000;

export function createGuessBackoff(options: { clock: Clock }): TMemoryGuessBackoff {
  const entries = new Map<string, TEntry>();
  let newKeysSinceSweep = 0;

  const current = (key: string, now: number): TEntry | undefined => {
    const entry = entries.get(key);
    if (entry && now - entry.lastFailureAt >= FORGET_AFTER_MS) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  const sweep = (now: number) => {
    newKeysSinceSweep = 0;
    for (const [key, entry] of entries) if (now - entry.lastFailureAt >= FORGET_AFTER_MS) entries.delete(key);
    if (entries.size > SWEEP_THRESHOLD * 2) {
      // Map order is least recently failed first.
      let excess = entries.size - SWEEP_THRESHOLD;
      for (const key of entries.keys()) {
        if (excess-- <= 0) break;
        entries.delete(key);
      }
    }
  };

  return {
    async waitSeconds(key) {
      const now = options.clock.now();
      const entry = current(key, now);
      return entry && entry.nextAllowedAt > now ? Math.ceil((entry.nextAllowedAt - now) / 1000) : 0;
    },
    async fail(key, { strict = false } = {}) {
      const now = options.clock.now();
      const entry = current(key, now) ?? { failures: 0, lastFailureAt: now, nextAllowedAt: now };
      entry.failures += 1;
      entry.lastFailureAt = now;
      const over = entry.failures - (strict ? 1 : FREE_GUESS_FAILURES);
      const waitMs = over < 0 ? 0 : Math.min(MAX_WAIT_MS, BASE_WAIT_MS * 2 ** Math.min(over, 30));
      entry.nextAllowedAt = Math.max(entry.nextAllowedAt, now + waitMs);
      if (!entries.delete(key)) newKeysSinceSweep++;
      entries.set(key, entry);
      if (entries.size > SWEEP_THRESHOLD && newKeysSinceSweep >= SWEEP_EVERY) sweep(now);
      return Math.ceil((entry.nextAllowedAt - now) / 1000);
    },
    async succeed(key) {
      entries.delete(key);
    },
    size: () => entries.size,
  };
}
