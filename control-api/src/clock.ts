/** The time every rule of the API reads: the system clock in production, a hand-moved one in tests. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
