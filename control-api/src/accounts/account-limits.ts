/**
 * The limits of creator accounts, per API process (in memory, like the other request limits):
 * failed sign-ins per client address and per account, and account emails (sign-in, reset and
 * verification links) per recipient, so no one can guess passwords quickly or fill an inbox.
 */
import type { TConfig } from '../config/config.ts';
import type { Clock } from '../deps.ts';
import { createRateLimiter, type RateLimiter } from '../access/rate-limiter.ts';

export interface TAccountLimits {
  /** Failed sign-ins per client address per hour. */
  signInFailuresByAddress: RateLimiter;
  /** Failed sign-ins per account (the address typed, normalised) per hour. */
  signInFailuresByAccount: RateLimiter;
  /** Emails with a link per recipient per hour. */
  emailsByRecipient: RateLimiter;
}

function perHour(count: number, clock: Clock): RateLimiter {
  return createRateLimiter({ perMinute: count / 60, burst: count, clock });
}

export function createAccountLimits(limits: TConfig['accountLimits'], clock: Clock): TAccountLimits {
  return {
    signInFailuresByAddress: perHour(limits.signInFailuresPerAddressPerHour, clock),
    signInFailuresByAccount: perHour(limits.signInFailuresPerAccountPerHour, clock),
    emailsByRecipient: perHour(limits.emailsPerAddressPerHour, clock),
  };
}
