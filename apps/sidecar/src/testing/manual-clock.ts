import type { Clock } from '@platform/domain';

/** A clock the spec moves by hand. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.UTC(2026, 0, 15, 12, 0, 0)) {}

  now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
  }

  get seconds(): number {
    return Math.floor(this.ms / 1000);
  }
}
