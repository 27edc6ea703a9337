import { describe, expect, it } from 'vitest';
import { formatAlertTime, formatCommentTime } from './relative-time.ts';

describe('relative time', () => {
  const now = Date.UTC(2026, 0, 10, 12);

  it('says how long ago a comment was written, then its date with the year', () => {
    expect(formatCommentTime(now - 10_000, now)).toBe('just now');
    expect(formatCommentTime(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(formatCommentTime(now - 3 * 3600_000, now)).toBe('3 hours ago');
    expect(formatCommentTime(now - 86_400_000, now)).toBe('yesterday');
    expect(formatCommentTime(Date.UTC(2025, 5, 1, 12), now)).toMatch(/2025/);
  });

  it('says it shortly for an alert, then the date without the year', () => {
    expect(formatAlertTime(now - 10_000, now)).toBe('just now');
    expect(formatAlertTime(now - 5 * 60_000, now)).toBe('5 min. ago');
    expect(formatAlertTime(now - 3 * 3600_000, now)).toBe('3 hr. ago');
    expect(formatAlertTime(now - 86_400_000, now)).toBe('yesterday');
    expect(formatAlertTime(Date.UTC(2025, 5, 1, 12), now)).toBe('Jun 1');
  });
});
