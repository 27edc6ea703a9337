import { describe, expect, it } from 'vitest';
import { createViewLedger } from './view-ledger.ts';

const WINDOW = 30 * 60_000;
const view = (visitorId: string, fileId: string | null = null) => ({ siteId: 'site', fileId, visitorId });

describe('view ledger', () => {
  it('as the only counter, once loaded, answers for views it never saw', () => {
    const ledger = createViewLedger({ soleCounter: true, windowMs: WINDOW });
    // Before it is loaded it cannot tell.
    expect(ledger.countedSince(view('a'), 0)).toBeUndefined();
    ledger.load([{ ...view('a'), at: 1_000 }], 0, true);
    expect(ledger.countedSince(view('a'), 500)).toBe(true);
    expect(ledger.countedSince(view('a'), 1_000)).toBe(false);
    expect(ledger.countedSince(view('b'), 0)).toBe(false);
    // A view of a file is not the view of the site.
    expect(ledger.countedSince(view('a', 'file'), 0)).toBe(false);
    // Asked about a time before what it was loaded from, it cannot tell.
    expect(ledger.countedSince(view('b'), -1)).toBeUndefined();
  });

  it('beside other counters never answers "not counted", only what it counted itself', () => {
    const ledger = createViewLedger({ soleCounter: false, windowMs: WINDOW });
    ledger.load([{ ...view('a'), at: 1_000 }], 0, true);
    expect(ledger.countedSince(view('a'), 0)).toBe(true);
    expect(ledger.countedSince(view('b'), 0)).toBeUndefined();
    ledger.note(view('b'), 2_000);
    expect(ledger.countedSince(view('b'), 1_500)).toBe(true);
  });

  it('does not vouch for views when its load was cut short', () => {
    const ledger = createViewLedger({ soleCounter: true, windowMs: WINDOW });
    ledger.load([{ ...view('a'), at: 1_000 }], 0, false);
    expect(ledger.countedSince(view('a'), 0)).toBe(true);
    expect(ledger.countedSince(view('b'), 0)).toBeUndefined();
  });

  it('forgets a view withdrawn because it could not be stored, but not a later count of it', () => {
    const ledger = createViewLedger({ soleCounter: true, windowMs: WINDOW });
    ledger.load([], 0, true);
    ledger.note(view('a'), 1_000);
    ledger.withdraw(view('a'), 1_000);
    expect(ledger.countedSince(view('a'), 0)).toBe(false);
    ledger.note(view('a'), 2_000);
    ledger.withdraw(view('a'), 1_000);
    expect(ledger.countedSince(view('a'), 0)).toBe(true);
  });

  it('when full, drops views past the window first, and after forgetting recent ones asks again for a whole window', () => {
    const ledger = createViewLedger({ soleCounter: true, windowMs: 1_000, maxEntries: 4 });
    ledger.load([], 0, true);
    ledger.note(view('old1'), 10);
    ledger.note(view('old2'), 20);
    ledger.note(view('new1'), 1_500);
    ledger.note(view('new2'), 1_600);
    // Full: the two past the window (at 1,700 it spans 700..1,700) go, the recent ones stay.
    ledger.note(view('new3'), 1_700);
    expect(ledger.size()).toBe(3);
    expect(ledger.countedSince(view('new1'), 700)).toBe(true);
    expect(ledger.countedSince(view('other'), 700)).toBe(false);
    // Full again with every view within the window: all are forgotten, and until a window has
    // passed only the database can tell whether a view it does not hold was counted.
    ledger.note(view('new4'), 1_800);
    ledger.note(view('new5'), 1_900);
    expect(ledger.size()).toBe(1);
    expect(ledger.countedSince(view('new1'), 1_900 - 1_000)).toBeUndefined();
    expect(ledger.countedSince(view('new5'), 900)).toBe(true);
    expect(ledger.countedSince(view('other'), 1_900)).toBe(false);
  });
});
