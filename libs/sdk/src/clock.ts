/** Milliseconds since the epoch. Injected so a test can move time without waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
