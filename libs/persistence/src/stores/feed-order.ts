import type { EntityManager } from 'typeorm';

/**
 * A feed's readers follow it by seq and never look below the last seq they saw. On Postgres a
 * serial seq is drawn at insert but seen at commit, so a writer could commit n+1 while n is still
 * open, and a reader would step over n for good. A writer therefore holds the feed's lock from
 * before it draws a seq until its transaction ends: seqs become visible in order (a rolled-back
 * seq is a hole no reader waits for). The lock is a transaction-level advisory lock keyed by the
 * table, so readers, pruning and vacuum are never blocked by it. SQLite has one writer at a time.
 * (The definitions feed gets the same from its locked sequence row, the audit chain from its head.)
 * A transaction writes its feed entries after its other row writes (only the audit append, whose
 * lock always comes after, follows): holding this lock, a writer never waits on a row that another
 * writer, waiting for this lock, holds.
 */
export async function inFeedOrder<T>(
  manager: EntityManager,
  table: string,
  write: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (manager.connection.options.type !== 'postgres') return write(manager);
  const locked = async (m: EntityManager) => {
    await m.query('SELECT pg_advisory_xact_lock($1::regclass::oid::bigint)', [table]);
    return write(m);
  };
  return manager.queryRunner?.isTransactionActive ? locked(manager) : manager.transaction(locked);
}
