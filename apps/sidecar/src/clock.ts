import { systemClock, type Clock } from '@platform/domain';

/** Injection token of the `Clock` every time-based decision reads (tests move it). */
export const CLOCK = Symbol('CLOCK');

export { systemClock, type Clock };

export const epochSeconds = (clock: Clock): number => Math.floor(clock.now().getTime() / 1000);
