/** What the tests through `npm run stack` share. */

/** Polls `probe` until it answers something (not undefined), or fails after `ms`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
