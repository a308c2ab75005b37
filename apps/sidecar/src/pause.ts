import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves after `ms`, or at once (without throwing) when `signal` aborts. Never keeps the process alive. */
export async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  try {
    await sleep(ms, undefined, { signal, ref: false });
  } catch {
    // aborted: the caller checks signal.aborted
  }
}
