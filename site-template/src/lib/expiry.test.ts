import { describe, expect, it } from 'vitest';
import { expiryLine, expiryLineUtc, nextExpiryUpdateMs } from './expiry.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const at = Date.parse('2026-12-12T23:30:00Z');

describe('the expiry line', () => {
  it('says the date and time in UTC in the built page', () => {
    expect(expiryLineUtc(new Date(at))).toBe('Available until 12 December 2026, 23:30 UTC');
  });

  it("names the date in the visitor's own time zone more than a week ahead", () => {
    expect(expiryLine(at, at - 30 * DAY, 'UTC')).toBe('Available until 12 December 2026');
    // Half past eleven at night in London is the next morning in Tokyo and the same evening in New York.
    expect(expiryLine(at, at - 30 * DAY, 'Asia/Tokyo')).toBe('Available until 13 December 2026');
    expect(expiryLine(at, at - 30 * DAY, 'America/New_York')).toBe('Available until 12 December 2026');
  });

  it('counts down within the week, rounding down so it never promises more time than is left', () => {
    expect(expiryLine(at, at - 7 * DAY)).toBe('This link expires in 7 days');
    expect(expiryLine(at, at - 3 * DAY - 5 * HOUR)).toBe('This link expires in 3 days');
    expect(expiryLine(at, at - 2 * DAY)).toBe('This link expires in 2 days');
    expect(expiryLine(at, at - 2 * DAY + 1)).toBe('This link expires in 47 hours');
    expect(expiryLine(at, at - 2 * HOUR - 1)).toBe('This link expires in 2 hours');
    expect(expiryLine(at, at - 2 * HOUR + 1)).toBe('This link expires in 119 minutes');
    expect(expiryLine(at, at - 61_000)).toBe('This link expires in 1 minute');
    expect(expiryLine(at, at - 10_000)).toBe('This link expires in 1 minute');
  });

  it('says the link has expired from the instant itself', () => {
    expect(expiryLine(at, at)).toBe('This link has expired');
    expect(expiryLine(at, at + DAY)).toBe('This link has expired');
  });

  it('is rewritten when its wording next changes, at most an hour apart, and never once expired', () => {
    expect(nextExpiryUpdateMs(at, at - 3 * DAY - 30 * 60_000)).toBe(30 * 60_000 + 1);
    expect(nextExpiryUpdateMs(at, at - 90_500)).toBe(30_501);
    expect(nextExpiryUpdateMs(at, at - 500)).toBe(500);
    expect(nextExpiryUpdateMs(at, at)).toBe(Number.POSITIVE_INFINITY);
  });
});
