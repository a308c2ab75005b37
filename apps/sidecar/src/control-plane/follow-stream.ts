import type { Logger } from '@nestjs/common';
import { Backoff } from '@platform/domain';
import { pause } from '../pause';

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
 * ends or fails, after a backoff that an accepted stream resets.
 */
export async function followStream<T>(options: FollowStreamOptions<T>): Promise<void> {
  const { what, logger, signal, open, apply, onConnection } = options;
  const backoff = new Backoff(500, 30_000);
  while (!signal.aborted) {
    const connection = new AbortController();
    onConnection?.(connection);
    const abortConnection = () => connection.abort();
    signal.addEventListener('abort', abortConnection, { once: true });
    try {
      for await (const item of open(connection.signal, () => backoff.reset())) apply(item);
      if (!connection.signal.aborted) logger.warn(`${what} ended; reconnecting`);
    } catch (error) {
      if (!connection.signal.aborted) logger.warn(`${what} failed: ${(error as Error).message}`);
    } finally {
      signal.removeEventListener('abort', abortConnection);
    }
    if (signal.aborted) return;
    if (connection.signal.aborted) continue;
    await pause(backoff.next(), signal);
  }
}
