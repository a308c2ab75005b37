/** Injected wherever time decides an outcome, so tests move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The clock's time in Unix seconds, as JWT claims and wire entries count it. */
export const epochSeconds = (clock: Clock = systemClock): number => Math.floor(clock.now().getTime() / 1000);
