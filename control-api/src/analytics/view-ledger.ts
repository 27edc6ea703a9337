/**
 * The views a runtime counted lately, by site, file and visitor, so that a repeat within the
 * dedupe window needs no query (`deps.caches.views`).
 *
 * Where this process is the only one that counts views (the embedded SQLite database: one API
 * process owns the file), the ledger can also answer "not counted" without asking: it is loaded at
 * start with every view counted within the window, then notes each view it counts, so from then on
 * it holds them all. Were it ever to overflow, it forgets and asks the database again until a whole
 * window has passed. On PostgreSQL, where other API processes count views too, a view it has not
 * seen is always looked up.
 */

/** Views remembered at most; beyond, those past the window go first, then all of them. */
const DEFAULT_MAX_ENTRIES = 50_000;

export interface TViewKey {
  siteId: string;
  /** Null for a view of the site itself. */
  fileId: string | null;
  visitorId: string;
}

export interface TCountedView extends TViewKey {
  /** When it was counted (epoch ms). */
  at: number;
}

export interface TViewLedger {
  /**
   * Whether this view was counted after `since`: true or false when the ledger can tell, undefined
   * when only the database can (another process may have counted it, or the ledger forgot).
   */
  countedSince(view: TViewKey, since: number): boolean | undefined;
  /** This view is counted now (taken before its row is written, so a second beacon at once counts once). */
  note(view: TViewKey, at: number): void;
  /** The view noted at `at` could not be stored after all: it no longer counts. */
  withdraw(view: TViewKey, at: number): void;
  /**
   * Loads the views counted from `from` on (read from the database at start); from then on the
   * ledger answers for every view, if this process is the only one counting them. `complete` false:
   * the list was cut short, so it does not.
   */
  load(views: Iterable<TCountedView>, from: number, complete: boolean): void;
  /** Views remembered now. */
  size(): number;
}

export function createViewLedger(options: { soleCounter: boolean; windowMs: number; maxEntries?: number }): TViewLedger {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const counted = new Map<string, number>();
  /** Every view counted from this instant on is in `counted` (Infinity: not known to be). */
  let completeFrom = Number.POSITIVE_INFINITY;
  const keyOf = (view: TViewKey) => `${view.siteId}\u0000${view.fileId ?? ''}\u0000${view.visitorId}`;

  const makeRoom = (now: number) => {
    if (counted.size < maxEntries) return;
    const expired = now - options.windowMs;
    for (const [key, at] of counted) if (at <= expired) counted.delete(key);
    // Room for a quarter more at least, or a full ledger would be walked at every view.
    if (counted.size < (maxEntries * 3) / 4) return;
    counted.clear();
    // What was forgotten may still be within the window: complete again once it has passed.
    if (options.soleCounter && completeFrom !== Number.POSITIVE_INFINITY) completeFrom = now;
  };

  return {
    countedSince(view, since) {
      const at = counted.get(keyOf(view));
      if (at !== undefined && at > since) return true;
      return completeFrom <= since ? false : undefined;
    },
    note(view, at) {
      makeRoom(at);
      counted.set(keyOf(view), at);
    },
    withdraw(view, at) {
      const key = keyOf(view);
      if (counted.get(key) === at) counted.delete(key);
    },
    load(views, from, complete) {
      for (const view of views) {
        const key = keyOf(view);
        if ((counted.get(key) ?? Number.NEGATIVE_INFINITY) < view.at) counted.set(key, view.at);
      }
      if (options.soleCounter && complete) completeFrom = Math.min(completeFrom, from);
    },
    size: () => counted.size,
  };
}

/** How many views a runtime loads at start: past this, the ledger does not vouch for views it has not seen. */
export const VIEW_LEDGER_LOAD_LIMIT = DEFAULT_MAX_ENTRIES / 2;
