/**
 * How often one client address may send the public forms: contact, feedback, Contact Sales and the
 * newsletter together, per hour (FORM_SUBMISSIONS_PER_ADDRESS_PER_HOUR), in the runtime's limiter
 * store like the other request limits (in memory per API process, or Redis shared by all; counted
 * per process while Redis cannot answer). A refused submission gets 429 with Retry-After.
 */
import { rateLimitedError, type RateLimiter } from '../access/rate-limiter.ts';
import type { TLimiterStore } from '../access/limiter-store.ts';

export function createFormLimiter(perHour: number, store: TLimiterStore): RateLimiter {
  return store.rateLimiter('forms', { perMinute: perHour / 60, burst: perHour, whenUnavailable: 'local' });
}

/** Takes one submission from the address's allowance, or throws the 429 saying when to try again. */
export async function admitFormSubmission(limiter: RateLimiter, address: string): Promise<void> {
  const decision = await limiter.take(address);
  if (decision.allowed) return;
  const minutes = Math.max(1, Math.ceil(decision.retryAfterSeconds / 60));
  throw rateLimitedError(decision, `Too many messages from your connection. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
}
