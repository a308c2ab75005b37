import { Backoff } from './backoff';

describe(Backoff.name, () => {
  it('doubles from the minimum up to the maximum, without jitter at its lowest draw', () => {
    const backoff = new Backoff(100, 1_000, () => 0);
    expect([1, 2, 3, 4, 5].map(() => backoff.next())).toEqual([100, 200, 400, 800, 1_000]);
  });

  it('takes off at most 20 % at random, never adds', () => {
    const lowest = new Backoff(100, 1_000, () => 0.999_999);
    expect(lowest.next()).toBe(80);
    for (let i = 0; i < 200; i++) {
      const delay = new Backoff(1_000, 10_000).next();
      expect(delay).toBeGreaterThanOrEqual(800);
      expect(delay).toBeLessThanOrEqual(1_000);
    }
  });

  it('starts again from the minimum after a reset', () => {
    const backoff = new Backoff(100, 1_000, () => 0);
    backoff.next();
    backoff.next();
    backoff.reset();
    expect(backoff.next()).toBe(100);
  });
});
