import type { TokenEventInput, TokenEventStore } from '../storage';

type Append = Pick<TokenEventStore, 'appendTokenEvents'>;

interface Waiting {
  events: TokenEventInput[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for token events: appends that arrive during one turn of the event loop are
 * written together, in one statement, at the next. Every caller still waits for the write that
 * holds its events, so a token is answered only once its event is stored, and a failed write
 * fails each of its callers. Under load the database sees one commit per batch, not per token.
 */
export class GroupedTokenEvents implements Append {
  private waiting: Waiting[] = [];

  constructor(private readonly store: Append) {}

  appendTokenEvents(events: TokenEventInput[]): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => void this.flush());
      this.waiting.push({ events, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    try {
      await this.store.appendTokenEvents(batch.flatMap((waiting) => waiting.events));
      for (const waiting of batch) waiting.resolve();
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}
