import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';

/**
 * SQLite runs on one connection, so a transaction owns it until it ends: anything else issued
 * meanwhile would join (and roll back with) that transaction. The lock queues such work.
 * Calls made from inside the holder (a store used within a transaction) pass straight through.
 */
export class ConnectionLock {
  private tail: Promise<void> = Promise.resolve();
  private readonly holder = new AsyncLocalStorage<true>();

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.holder.getStore()) return work();
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await this.holder.run(true, work);
    } finally {
      release();
    }
  }
}

const locks = new WeakMap<DataSource, ConnectionLock>();

/** The lock shared by everything using this data source on SQLite; null on Postgres (a pool). */
export function connectionLockFor(dataSource: DataSource): ConnectionLock | null {
  if (dataSource.options.type !== 'better-sqlite3') return null;
  let lock = locks.get(dataSource);
  if (!lock) {
    lock = new ConnectionLock();
    locks.set(dataSource, lock);
  }
  return lock;
}
