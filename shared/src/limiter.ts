/** Concurrency limits for work inside one process (derivations in the builder, password hashes in the API). */

export type TGate = <T>(work: () => Promise<T>) => Promise<T>;

export interface TLimiter {
  <T>(work: () => Promise<T>): Promise<T>;
  /** Work running and waiting right now (for tests and diagnostics). */
  load(): { running: number; waiting: number };
}

export interface TLimiterOptions {
  /** Work allowed to wait for a slot; more is refused with `refuse()`'s error instead of queueing. Unbounded when absent. */
  maxWaiting?: number;
  refuse?: () => Error;
}

/** Runs at most `limit` pieces of work at a time; the rest wait their turn in call order. */
export function createLimiter(limit: number, options: TLimiterOptions = {}): TLimiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`A limiter needs a whole number of slots, not ${limit}`);
  const maxWaiting = options.maxWaiting ?? Infinity;
  let running = 0;
  const waiting: Array<() => void> = [];
  const gate = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running < limit) running++;
    else if (waiting.length >= maxWaiting) throw options.refuse?.() ?? new Error('Too much work is waiting');
    // The slot is handed over by the finishing work (running stays counted), so none can jump the queue.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
  return Object.assign(gate, { load: () => ({ running, waiting: waiting.length }) });
}

/** Runs one piece of work at a time, in call order. */
export function createGate(): TLimiter {
  return createLimiter(1);
}
