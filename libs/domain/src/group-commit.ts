interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/** How much one write takes and how many may be out at once. */
export interface GroupCommitOptions<Item> {
  /** Writes in flight at once (default 1); items that arrive meanwhile wait for the next. */
  concurrency?: number;
  /** Most items in one write (default: all that wait). */
  maxItems?: number;
  /** A write stops taking items once their sizes add up past `max`; one item always goes. */
  size?: { of: (item: Item) => number; max: number };
}

/**
 * Group commit: items submitted during one turn of the event loop are written together at the
 * next; while `concurrency` writes are in flight, items gather for the one after. Every caller
 * waits for the write that holds its item and gets its own result (`write` answers one per
 * item, in order); a failed write fails each of its callers. Under load the database sees one
 * commit at a time per process, each carrying what arrived meanwhile, so writers of a shared
 * lock (the audit chain) do not queue up on it.
 */
export class GroupCommit<Item, Result> {
  private waiting: Array<Waiting<Item, Result>> = [];
  private writing = 0;
  private scheduled = false;
  private idle: Array<() => void> = [];
  private readonly concurrency: number;

  constructor(
    private readonly write: (items: Item[]) => Promise<Result[]>,
    private readonly options: GroupCommitOptions<Item> = {},
  ) {
    this.concurrency = options.concurrency ?? 1;
  }

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.scheduled && this.writing < this.concurrency) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Resolves once every item submitted so far has been written (or has failed). */
  drained(): Promise<void> {
    if (this.waiting.length === 0 && this.writing === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private flush(): void {
    this.scheduled = false;
    while (this.waiting.length > 0 && this.writing < this.concurrency) void this.writeBatch(this.take());
  }

  private take(): Array<Waiting<Item, Result>> {
    const { maxItems = Infinity, size } = this.options;
    let count = 0;
    let total = 0;
    while (count < this.waiting.length && count < maxItems) {
      if (size !== undefined) {
        total += size.of(this.waiting[count].item);
        if (count > 0 && total > size.max) break;
      }
      count++;
    }
    return this.waiting.splice(0, count);
  }

  private async writeBatch(batch: Array<Waiting<Item, Result>>): Promise<void> {
    this.writing++;
    try {
      const results = await this.write(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, index) => waiting.resolve(results[index]));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.writing--;
      this.flush();
      if (this.waiting.length === 0 && this.writing === 0)
        for (const resolve of this.idle.splice(0)) resolve();
    }
  }
}
