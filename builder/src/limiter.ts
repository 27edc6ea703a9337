/** Concurrency limits for work inside one process. */

export type TGate = <T>(work: () => Promise<T>) => Promise<T>;

/** Runs at most `limit` pieces of work at a time; the rest wait their turn in call order. */
export function createLimiter(limit: number): TGate {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`A limiter needs a whole number of slots, not ${limit}`);
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active < limit) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over, not freed
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** Runs one piece of work at a time, in call order. */
export function createGate(): TGate {
  return createLimiter(1);
}
