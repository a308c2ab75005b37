import { EventEmitter, once } from 'node:events';
import { Injectable } from '@nestjs/common';

/**
 * Wakes the claims waiting in this process (long poll) when a job changes here; a change made by
 * another replica is seen at the waiter's next look (`POLL_MS`).
 */
@Injectable()
export class JobSignals {
  static readonly POLL_MS = 250;
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  changed(): void {
    this.emitter.emit('changed');
  }

  /** Resolves at the next change here, or after `POLL_MS`, or when `signal` aborts. */
  async next(signal: AbortSignal): Promise<void> {
    const timeout = AbortSignal.any([signal, AbortSignal.timeout(JobSignals.POLL_MS)]);
    await once(this.emitter, 'changed', { signal: timeout }).catch(() => undefined);
  }
}
