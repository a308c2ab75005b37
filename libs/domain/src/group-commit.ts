interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items submitted during one turn of the event loop are written together at the
 * next; while a write is in flight, items gather for the one after it. Every caller waits for
 * the write that holds its item and gets its own result (`write` answers one per item, in
 * order); a failed write fails each of its callers. Under load the database sees one commit at
 * a time per process, each carrying what arrived meanwhile, so writers of a shared lock (the
 * audit chain) do not queue up on it.
 */
export class GroupCommit<Item, Result> {
  private waiting: Array<Waiting<Item, Result>> = [];
  private writing = false;

  constructor(private readonly write: (items: Item[]) => Promise<Result[]>) {}

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0 && !this.writing) setImmediate(() => void this.flush());
      this.waiting.push({ item, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    this.writing = true;
    try {
      const results = await this.write(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, index) => waiting.resolve(results[index]));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.writing = false;
      if (this.waiting.length > 0) void this.flush();
    }
  }
}
