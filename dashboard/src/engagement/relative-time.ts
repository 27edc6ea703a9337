/** Short relative times for alerts: 'just now', '5 min ago', '3 h ago', 'yesterday', then a date. */
const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });
const DATE = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric' });

export function formatRelativeTime(timestamp: number, now: number): string {
  const seconds = Math.round((timestamp - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  if (abs < 3600) return RELATIVE.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return RELATIVE.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return RELATIVE.format(Math.round(seconds / 86_400), 'day');
  return DATE.format(timestamp);
}
