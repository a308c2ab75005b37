import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type RevocationEntry, type Stores, toRevocationEntry } from '@platform/domain';
import { STORES } from './tokens';

const POLL_MS = 250;
const PAGE = 1000;

interface Subscriber {
  cursor: number;
  send: (entry: RevocationEntry) => void;
  /** Broadcasts that arrive while the subscriber's catch-up query runs. */
  pending: RevocationEntry[] | null;
}

/**
 * Pushes new deny-list entries to every streaming sidecar. It reads them from the database
 * (not from in-process events), so entries written by any control-plane replica reach every
 * sidecar: at once when this process wrote them (`wake`), within POLL_MS otherwise.
 */
@Injectable()
export class RevocationFeed implements OnApplicationShutdown {
  private readonly logger = new Logger(RevocationFeed.name);
  private readonly subscribers = new Set<Subscriber>();
  private cursor = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private pollAgain = false;

  constructor(@Inject(STORES) private readonly stores: Stores) {}

  /** Sends every entry after `after`, then each new one; returns the unsubscribe function. */
  async subscribe(after: number, send: (entry: RevocationEntry) => void): Promise<() => void> {
    const subscriber: Subscriber = { cursor: after, send, pending: [] };
    this.subscribers.add(subscriber);
    for (;;) {
      const page = await this.stores.revocations.listRevocationsAfter(subscriber.cursor, PAGE);
      for (const r of page) this.deliver(subscriber, toRevocationEntry(r));
      if (page.length < PAGE) break;
    }
    const pending = subscriber.pending ?? [];
    subscriber.pending = null;
    for (const entry of pending) this.deliver(subscriber, entry);
    this.cursor = Math.max(this.cursor, subscriber.cursor);
    this.timer ??= setInterval(() => this.wake(), POLL_MS);
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0) this.stop();
    };
  }

  /** Poll now: called right after this process committed a revocation. */
  wake(): void {
    if (this.subscribers.size === 0) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = this.poll()
      .catch((error: Error) => this.logger.warn(`revocation feed poll failed: ${error.name}`))
      .finally(() => {
        this.polling = undefined;
        if (this.pollAgain) {
          this.pollAgain = false;
          this.wake();
        }
      });
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  private async poll(): Promise<void> {
    for (;;) {
      const page = await this.stores.revocations.listRevocationsAfter(this.cursor, PAGE);
      for (const r of page) {
        const entry = toRevocationEntry(r);
        for (const subscriber of this.subscribers) {
          if (subscriber.pending) subscriber.pending.push(entry);
          else this.deliver(subscriber, entry);
        }
        this.cursor = r.seq;
      }
      if (page.length < PAGE) return;
    }
  }

  private deliver(subscriber: Subscriber, entry: RevocationEntry): void {
    if (entry.seq <= subscriber.cursor) return;
    subscriber.cursor = entry.seq;
    subscriber.send(entry);
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
