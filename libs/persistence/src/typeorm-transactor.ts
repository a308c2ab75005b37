import type { Stores, Transactor } from '@platform/domain';
import type { DataSource } from 'typeorm';
import { connectionLockFor } from './connection-lock';
import { TypeOrmStores } from './stores/typeorm-stores';

/**
 * Runs work in one database transaction (READ COMMITTED on Postgres); it commits when `work`
 * resolves and rolls back when it throws. On SQLite transactions run one at a time.
 */
export class TypeOrmTransactor implements Transactor {
  constructor(private readonly dataSource: DataSource) {}

  inTransaction<T>(work: (stores: Stores) => Promise<T>): Promise<T> {
    const run = () => this.dataSource.transaction((manager) => work(new TypeOrmStores(manager)));
    const lock = connectionLockFor(this.dataSource);
    return lock ? lock.run(run) : run();
  }
}
