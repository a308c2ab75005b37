import type { Logger } from '@nestjs/common';
import { Backoff } from '@platform/domain';
import { pause } from '../pause';

/**
 * The longest wait between two attempts to reach a control plane that is away. It bounds how long
 * a sidecar stays behind once the control plane is back (a revocation acknowledged just before a
 * crash takes effect within it); a failed attempt costs the control plane one refused connection.
 */
export const STREAM_RECONNECT_CAP_MS = 1_000;

/** While the control plane stays away, one warning per this many failed attempts (about a minute). */
const REPEATED_FAILURE_EVERY = 60;

export interface FollowStreamOptions<T> {
  /** What the log calls it: `revocation stream`. */
  what: string;
  logger: Logger;
  /** Ends the following for good (shutdown). */
  signal: AbortSignal;
  /** Opens the stream (from wherever the follower has got to); `onOpen` once it is accepted. */
  open: (connection: AbortSignal, onOpen: () => void) => AsyncIterable<T>;
  apply: (item: T) => void;
  /** Each new connection: aborting it reconnects at once (to follow from a rewound seq). */
  onConnection?: (connection: AbortController) => void;
}

/**
 * Follows one of the control plane's event streams until `signal` aborts: reconnects when it
 * ends or fails, after a backoff that an accepted stream resets. An outage logs its first
 * failure, then once a minute, and the reconnection that ends it.
 */
export async function followStream<T>(options: FollowStreamOptions<T>): Promise<void> {
  const { what, logger, signal, open, apply, onConnection } = options;
  const backoff = new Backoff(250, STREAM_RECONNECT_CAP_MS);
  let failures = 0;
  const opened = () => {
    backoff.reset();
    if (failures > 0) logger.log(`${what} reconnected after ${failures} failed attempt(s)`);
    failures = 0;
  };
  while (!signal.aborted) {
    const connection = new AbortController();
    onConnection?.(connection);
    const abortConnection = () => connection.abort();
    signal.addEventListener('abort', abortConnection, { once: true });
    try {
      for await (const item of open(connection.signal, opened)) apply(item);
      if (!connection.signal.aborted) logger.warn(`${what} ended; reconnecting`);
    } catch (error) {
      if (!connection.signal.aborted && failures++ % REPEATED_FAILURE_EVERY === 0)
        logger.warn(`${what} failed (${failures} attempt(s)): ${(error as Error).message}`);
    } finally {
      signal.removeEventListener('abort', abortConnection);
    }
    if (signal.aborted) return;
    if (connection.signal.aborted) continue;
    await pause(backoff.next(), signal);
  }
}
