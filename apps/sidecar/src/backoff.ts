import { setTimeout as sleep } from 'node:timers/promises';

/** Exponential backoff with jitter, for reconnecting to the control plane. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly minMs: number,
    private readonly maxMs: number,
  ) {}

  reset(): void {
    this.attempt = 0;
  }

  /** The next delay: min * 2^attempt, capped, +/- 20 %. */
  next(): number {
    const base = Math.min(this.maxMs, this.minMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }
}

/** Resolves after `ms`, or at once (without throwing) when `signal` aborts. Never keeps the process alive. */
export async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  try {
    await sleep(ms, undefined, { signal, ref: false });
  } catch {
    // aborted: the caller checks signal.aborted
  }
}
