/** Injection token of the `Clock` every time-based decision reads (tests move it). */
export const CLOCK = Symbol('CLOCK');
