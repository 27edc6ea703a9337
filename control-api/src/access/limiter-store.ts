/**
 * Where the limits keep their counts. One store per runtime (`deps.limits.store`), made from the
 * config: this process's memory by default (each API process counts for itself; no Redis needed),
 * or Redis when `REDIS_URL` is set (redis-limiter-store.ts), so that every API process behind a
 * balancer draws on the same buckets, back-offs and view claims.
 */
import type { Clock } from '../clock.ts';
import { AppError } from '../http/app-error.ts';
import { createGuessBackoff, type TGuessBackoff } from './guess-backoff.ts';
import { createRateLimiter, type RateLimiter, type TRateLimiterOptions } from './rate-limiter.ts';

/**
 * What a limiter does when its shared store cannot answer (Redis down or stalled):
 * - `local`: counts in this process's memory until it answers again (the limit holds per process,
 *   as without Redis; for limits whose worst case is load, not a guessed secret);
 * - `closed`: refuses with 503 and Retry-After (password guessing must never become unlimited,
 *   nor even N times the limit).
 */
export type TWhenUnavailable = 'local' | 'closed';

export interface TLimiterOptions extends TRateLimiterOptions {
  whenUnavailable: TWhenUnavailable;
}

export interface TLimiterStore {
  readonly kind: 'memory' | 'redis';
  /** A token-bucket limiter named `name` (its keys are `<prefix>:limit:<name>:<key>` in Redis). */
  rateLimiter(name: string, options: TLimiterOptions): RateLimiter;
  /** An exponential back-off of failed guesses named `name`. */
  guessBackoff(name: string, options: { whenUnavailable: TWhenUnavailable }): TGuessBackoff;
  /**
   * Claims `key` for `windowMs` among every process sharing the store: true for the first claim,
   * false while another holds it. In memory the process is the only claimant, so always true (its
   * own de-duplication decides); a store that cannot answer says true too (the claim is an extra
   * guard, never a reason to refuse).
   */
  claim(name: string, key: string, windowMs: number): Promise<TClaim>;
  close(): Promise<void>;
}

export interface TClaim {
  claimed: boolean;
  /** Lets the key go again (the claimed thing did not happen after all); only the claim's own holder's. */
  release(): Promise<void>;
}

export const SHARED_LIMITS_UNAVAILABLE_MESSAGE = 'This is briefly unavailable. Please try again in a moment.';
/** Seconds a client is told to wait when a `closed` limit cannot be checked. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The 503 of a `closed` limit whose store cannot answer. */
export function limitsUnavailableError(cause: unknown): AppError {
  return new AppError('service_unavailable', SHARED_LIMITS_UNAVAILABLE_MESSAGE, {
    cause,
    headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  });
}

const NOT_SHARED: TClaim = { claimed: true, release: async () => {} };

/** Today's limits: every count in this process's memory. */
export function createMemoryLimiterStore(clock: Clock): TLimiterStore {
  return {
    kind: 'memory',
    rateLimiter: (_name, options) => createRateLimiter({ ...options, clock }),
    guessBackoff: () => createGuessBackoff({ clock }),
    claim: async () => NOT_SHARED,
    close: async () => {},
  };
}
