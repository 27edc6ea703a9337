/**
 * The limits of creator accounts, in the runtime's limiter store like the other request limits (in
 * memory per API process, or Redis shared by all of them): failed sign-ins per client address and
 * per account, and account emails (sign-in, reset and verification links) per recipient, so no one
 * can guess passwords quickly or fill an inbox. While Redis cannot answer, sign-ins are refused with
 * 503 (guessing never goes unlimited) and emails are counted per process.
 */
import type { TConfig } from '../config/config.ts';
import type { RateLimiter } from '../access/rate-limiter.ts';
import type { TLimiterStore, TWhenUnavailable } from '../access/limiter-store.ts';

export interface TAccountLimits {
  /** Failed sign-ins per client address per hour. */
  signInFailuresByAddress: RateLimiter;
  /** Failed sign-ins per account (the address typed, normalised) per hour. */
  signInFailuresByAccount: RateLimiter;
  /** Emails with a link per recipient per hour. */
  emailsByRecipient: RateLimiter;
}

export function createAccountLimits(limits: TConfig['accountLimits'], store: TLimiterStore): TAccountLimits {
  const perHour = (name: string, count: number, whenUnavailable: TWhenUnavailable): RateLimiter =>
    store.rateLimiter(name, { perMinute: count / 60, burst: count, whenUnavailable });
  return {
    signInFailuresByAddress: perHour('sign-in-address', limits.signInFailuresPerAddressPerHour, 'closed'),
    signInFailuresByAccount: perHour('sign-in-account', limits.signInFailuresPerAccountPerHour, 'closed'),
    emailsByRecipient: perHour('account-emails', limits.emailsPerAddressPerHour, 'local'),
  };
}
