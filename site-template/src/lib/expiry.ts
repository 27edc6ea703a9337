/**
 * How a site tells its visitors when its link stops working. The page is static (built once, kept
 * by caches), so the built HTML says only what stays true: the absolute date in UTC. In the browser
 * the line is rewritten in the visitor's own time zone, relative when it is near.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** Within this, the line counts down ('This link expires in 3 days'); further off it names the date. */
const RELATIVE_WITHIN_MS = 7 * DAY_MS;

/** The line in the built page: the date and time in UTC, true wherever and whenever it is read. */
export function expiryLineUtc(expiresAt: Date): string {
  const date = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(expiresAt);
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(expiresAt);
  return `Available until ${date}, ${time} UTC`;
}

/**
 * The line in the visitor's browser, at `now`, in `timeZone` (the browser's own when absent):
 * 'Available until 12 December 2026' more than a week ahead; 'This link expires in 3 days' /
 * 'in 5 hours' / 'in 20 minutes' within it (rounded down, so it never promises more time than is
 * left); 'This link has expired' once it has (a page kept open or from a cache).
 */
export function expiryLine(expiresAtMs: number, nowMs: number, timeZone?: string): string {
  const left = expiresAtMs - nowMs;
  if (left <= 0) return 'This link has expired';
  if (left > RELATIVE_WITHIN_MS) {
    const date = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', ...(timeZone ? { timeZone } : {}) }).format(expiresAtMs);
    return `Available until ${date}`;
  }
  const [amount, unit] =
    left >= 2 * DAY_MS ? [Math.floor(left / DAY_MS), 'day'] : left >= 2 * HOUR_MS ? [Math.floor(left / HOUR_MS), 'hour'] : [Math.max(1, Math.floor(left / MINUTE_MS)), 'minute'];
  return `This link expires in ${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/** When the line next needs rewriting: at the next change of its wording, at most an hour from now. */
export function nextExpiryUpdateMs(expiresAtMs: number, nowMs: number): number {
  const left = expiresAtMs - nowMs;
  if (left <= 0) return Number.POSITIVE_INFINITY;
  const step = left > 2 * HOUR_MS ? HOUR_MS : MINUTE_MS;
  return Math.min(step, (left % step) + 1, left);
}
