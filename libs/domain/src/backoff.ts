/**
 * Exponential backoff with jitter, for every reconnect loop of the platform: `min * 2^attempt`
 * capped at `max`, less up to 20 % at random, so that many clients that lost the same server do
 * not come back in step, and none waits longer than the nominal delay.
 */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly minMs: number,
    private readonly maxMs: number,
    private readonly random: () => number = Math.random,
  ) {}

  reset(): void {
    this.attempt = 0;
  }

  next(): number {
    const nominal = Math.min(this.maxMs, this.minMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    return Math.round(nominal * (1 - 0.2 * this.random()));
  }
}
