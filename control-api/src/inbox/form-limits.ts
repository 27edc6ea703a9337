/**
 * How often one client address may send the public forms: contact, feedback, Contact Sales and the
 * newsletter together, per hour (FORM_SUBMISSIONS_PER_ADDRESS_PER_HOUR), in memory per API process
 * like the other request limits. A refused submission gets 429 with Retry-After.
 */
import type { Clock } from '../deps.ts';
import { createRateLimiter, rateLimitedError, type RateLimiter } from '../access/rate-limiter.ts';

export function createFormLimiter(perHour: number, clock: Clock): RateLimiter {
  return createRateLimiter({ perMinute: perHour / 60, burst: perHour, clock });
}

/** Takes one submission from the address's allowance, or throws the 429 saying when to try again. */
export function admitFormSubmission(limiter: RateLimiter, address: string): void {
  const decision = limiter.take(address);
  if (decision.allowed) return;
  const minutes = Math.max(1, Math.ceil(decision.retryAfterSeconds / 60));
  throw rateLimitedError(decision, `Too many messages from your connection. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
}
