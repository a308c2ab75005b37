import { EventEmitter } from 'node:events';
import { Injectable } from '@nestjs/common';

/**
 * Wakes the claims waiting in this process (long poll) when a job becomes claimable here; one
 * queued through another replica is seen at the waiter's next look (`POLL_MS`).
 */
@Injectable()
export class JobSignals {
  static readonly POLL_MS = 250;
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  queued(): void {
    this.emitter.emit('queued');
  }

  /** Resolves at the next job queued here, or after `ms` (at most POLL_MS). */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.emitter.off('queued', done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(ms, JobSignals.POLL_MS));
      this.emitter.once('queued', done);
    });
  }
}
