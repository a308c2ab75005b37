import { Logger, type OnApplicationShutdown } from '@nestjs/common';

const POLL_MS = 250;
const PAGE = 1000;

interface Subscriber<Entry> {
  cursor: number;
  send: (entry: Entry) => void;
  /** Broadcasts that arrive while the subscriber's catch-up query runs. */
  pending: Entry[] | null;
}

/** What a subscriber's catch-up waits on: its reader leaving, and its reader taking a page. */
export interface CatchUpReader {
  signal?: AbortSignal;
  taken?: () => Promise<unknown>;
}

/**
 * Pushes the new entries of a sequenced table to every streaming sidecar. It reads them from the
 * database (not from in-process events), so entries written by any control-plane replica reach
 * every sidecar: at once when this process wrote them (`wake`), within POLL_MS otherwise, and one
 * query serves every subscriber.
 */
export abstract class SeqFeed<Entry extends { seq: number }> implements OnApplicationShutdown {
  private readonly logger = new Logger(this.constructor.name);
  private readonly subscribers = new Set<Subscriber<Entry>>();
  private cursor = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private pollAgain = false;

  /** The entries after `after`, ascending by seq, at most `limit`. */
  protected abstract readAfter(after: number, limit: number): Promise<Entry[]>;

  /**
   * Sends every entry after `after`, then each new one; returns the unsubscribe function. While
   * catching up, one page is in flight: the next is read once `taken` says the reader took it.
   * A reader gone meanwhile (`signal`), or a failed read, leaves nothing subscribed.
   */
  async subscribe(
    after: number,
    send: (entry: Entry) => void,
    { signal, taken }: CatchUpReader = {},
  ): Promise<() => void> {
    const subscriber: Subscriber<Entry> = { cursor: after, send, pending: [] };
    this.subscribers.add(subscriber);
    const unsubscribe = () => {
      if (this.subscribers.delete(subscriber) && this.subscribers.size === 0) this.stop();
    };
    try {
      for (;;) {
        const page = await this.readAfter(subscriber.cursor, PAGE);
        if (signal?.aborted) break;
        for (const entry of page) this.deliver(subscriber, entry);
        if (page.length < PAGE) break;
        await taken?.();
      }
    } catch (error) {
      unsubscribe();
      throw error;
    }
    if (signal?.aborted) {
      unsubscribe();
      return unsubscribe;
    }
    const pending = subscriber.pending ?? [];
    subscriber.pending = null;
    for (const entry of pending) this.deliver(subscriber, entry);
    this.cursor = Math.max(this.cursor, subscriber.cursor);
    this.timer ??= setInterval(() => this.wake(), POLL_MS);
    return unsubscribe;
  }

  /** Subscribers now, catching up or following. */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Poll now: called right after this process committed an entry. */
  wake(): void {
    // Subscribers still catching up read to the end themselves: a poll would only fill their
    // pending lists (from seq 0 before any catch-up has set the cursor).
    if (!this.following()) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = this.poll()
      .catch((error: Error) => this.logger.warn(`feed poll failed: ${error.name}`))
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

  private following(): boolean {
    for (const subscriber of this.subscribers) if (subscriber.pending === null) return true;
    return false;
  }

  private async poll(): Promise<void> {
    for (;;) {
      const page = await this.readAfter(this.cursor, PAGE);
      for (const entry of page) {
        for (const subscriber of this.subscribers) {
          if (subscriber.pending) subscriber.pending.push(entry);
          else this.deliver(subscriber, entry);
        }
        this.cursor = entry.seq;
      }
      if (page.length < PAGE) return;
    }
  }

  private deliver(subscriber: Subscriber<Entry>, entry: Entry): void {
    if (entry.seq <= subscriber.cursor) return;
    subscriber.cursor = entry.seq;
    subscriber.send(entry);
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
