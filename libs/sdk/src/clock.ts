/** What the SDK asks of a clock: the platform's own `Clock` (and its test `ManualClock`) fits. */
export interface Clock {
  now(): Date;
}

/** The real time. */
export const systemClock: Clock = { now: () => new Date() };
