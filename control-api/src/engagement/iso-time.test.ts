import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.ts';

describe('isoTime', () => {
  it('writes every instant exactly as toISOString does', () => {
    const instants = [
      0,
      1,
      999,
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29, 12, 0, 0, 7),
      Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 23, 59, 59, 999),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 1, 29, 0, 0, 0, 10),
      Date.UTC(2026, 10, 26, 13, 35, 0, 120),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    // And a seeded spread over 1970-2400, a day at a time and at random.
    let x = 12_345;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
      instants.push(Math.floor((x / 2_147_483_648) * Date.UTC(2400, 0, 1)));
      instants.push(i * 86_400_000 + (x % 86_400_000));
    }
    for (const ms of instants) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('leaves instants outside four-digit years, and fractions, to toISOString', () => {
    for (const ms of [-1, Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(10_000, 0, 1), 1.5]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });
});
