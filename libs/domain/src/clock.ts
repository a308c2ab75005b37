/** Injected wherever time decides an outcome, so tests move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The clock's time in Unix seconds, as JWT claims and wire entries count it. */
export const epochSeconds = (clock: Clock = systemClock): number => Math.floor(clock.now().getTime() / 1000);

/** A clock moved by hand, for specs: it starts at `start` and moves only when told to. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date = new Date('2026-05-21T10:00:00.000Z')) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Unix seconds, as tokens count time. */
  get seconds(): number {
    return Math.floor(this.current / 1000);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  advanceSeconds(seconds: number): void {
    this.advance(seconds * 1000);
  }

  set(at: Date): void {
    this.current = at.getTime();
  }
}
