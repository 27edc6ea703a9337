/** One holder per key at a time, in arrival order, within this process. */
export interface TKeyedLock {
  /** Resolves with a release function once the caller holds the key. */
  acquire(key: string): Promise<() => void>;
  /** Keys currently held or waited for (for tests and diagnostics). */
  readonly size: number;
}

export function createKeyedLock(): TKeyedLock {
  const tails = new Map<string, Promise<void>>();
  return {
    async acquire(key) {
      const previous = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const tail = previous.then(() => held);
      tails.set(key, tail);
      await previous;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
        // The last holder cleans up, so the map does not grow with every chunk ever sent.
        if (tails.get(key) === tail) tails.delete(key);
      };
    },
    get size() {
      return tails.size;
    },
  };
}
