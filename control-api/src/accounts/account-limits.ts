/**
 * The limits of creator accounts, in the runtime's limiter store like the other request limits (in
 * memory per API process, or Redis shared by all of them): failed sign-ins per client address, per
 * account and per (account, address), one password check per account at a time, and account emails
 * (sign-in, reset and verification links) per recipient, so no one can guess passwords quickly or
 * fill an inbox. While Redis cannot answer, sign-ins are refused with 503 (guessing never goes
 * unlimited) and emails are counted per process.
 */
import type { TConfig } from '../config/config.ts';
import type { RateLimiter } from '../access/rate-limiter.ts';
import type { TGuessBackoff } from '../access/guess-backoff.ts';
import type { TLimiterStore, TWhenUnavailable } from '../access/limiter-store.ts';

export interface TAccountLimits {
  /** Failed sign-ins per client address per hour (taken before the check, given back when it is right). */
  signInFailuresByAddress: RateLimiter;
  /**
   * Failed sign-ins per account (the address typed, normalised) per hour, from every client address
   * together; once spent the account is under attack and each client address backs off from its
   * first failure on it (never a wall: an address that has not failed, its owner's, is still checked).
   */
  signInFailuresByAccount: RateLimiter;
  /** Back-off of failed sign-ins per (account, client address). */
  signInBackoff: TGuessBackoff;
  /** Accounts whose password is being checked right now: one check per account at a time. */
  signInChecks: TCheckLock;
  /** Emails with a link per recipient per hour. */
  emailsByRecipient: RateLimiter;
}

/** Work on a key that runs at most once at a time, in this process and (with Redis) in every API process. */
export interface TCheckLock {
  /** The release of the key, or null while another holds it. */
  acquire(key: string): Promise<(() => Promise<void>) | null>;
}

/** Longer than any check takes; a process that dies holding a key lets it go after this. */
const CHECK_LOCK_MS = 10_000;

function createCheckLock(store: TLimiterStore, name: string): TCheckLock {
  // The store's claim is shared by every process (in memory it always succeeds): this set orders this process's own.
  const held = new Set<string>();
  return {
    async acquire(key) {
      if (held.has(key)) return null;
      held.add(key);
      const claim = await store.claim(name, key, CHECK_LOCK_MS);
      if (!claim.claimed) {
        held.delete(key);
        return null;
      }
      return async () => {
        held.delete(key);
        await claim.release();
      };
    },
  };
}

export function createAccountLimits(limits: TConfig['accountLimits'], store: TLimiterStore): TAccountLimits {
  const perHour = (name: string, count: number, whenUnavailable: TWhenUnavailable): RateLimiter =>
    store.rateLimiter(name, { perMinute: count / 60, burst: count, whenUnavailable });
  return {
    signInFailuresByAddress: perHour('sign-in-address', limits.signInFailuresPerAddressPerHour, 'closed'),
    signInFailuresByAccount: perHour('sign-in-account', limits.signInFailuresPerAccountPerHour, 'closed'),
    signInBackoff: store.guessBackoff('sign-in-backoff', { whenUnavailable: 'closed' }),
    signInChecks: createCheckLock(store, 'sign-in-check'),
    emailsByRecipient: perHour('account-emails', limits.emailsPerAddressPerHour, 'local'),
  };
}
