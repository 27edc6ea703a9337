import { describe, expect, it } from 'vitest';
import { newId, newTimeOrderedId } from './ids.ts';

describe('newId', () => {
  it('answers 22 URL-safe characters, never the same twice across many refills of its pool', () => {
    const ids = Array.from({ length: 5000 }, newId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('newTimeOrderedId', () => {
  it('sorts by the instant it was made, as text, and is never the same twice', () => {
    const instants = [0, 1, 31, 32, 1_700_000_000_000, 1_700_000_000_001, Date.UTC(2026, 10, 26), Date.UTC(2999, 0, 1)];
    const ids = instants.map((ms) => newTimeOrderedId(ms));
    for (const id of ids) expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{22}$/);
    expect([...ids].sort()).toEqual(ids);
    const same = Array.from({ length: 5000 }, () => newTimeOrderedId(1_700_000_000_000));
    expect(new Set(same).size).toBe(same.length);
    for (const id of same) expect(id.slice(0, 9)).toBe(ids[4]!.slice(0, 9));
  });

  it('shares the random pool with newId without ever handing out the same bytes', () => {
    const mixed = Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? newId() : newTimeOrderedId(i)));
    expect(new Set(mixed).size).toBe(mixed.length);
  });
});
