import type { Stores, Transactor } from '@platform/domain';
import type { DataSource } from 'typeorm';
import { openDataSource, TypeOrmStores, TypeOrmTransactor } from '../../src';
import { createScratchDatabase, postgresSuiteEnabled } from './postgres';

/** A migrated database of its own for one test file. */
export interface TestDatabase {
  dataSource: DataSource;
  stores: Stores;
  transactor: Transactor;
  dispose(): Promise<void>;
}

export interface TestDriver {
  name: 'sqlite' | 'postgres';
  open(): Promise<TestDatabase>;
}

const sqlite: TestDriver = {
  name: 'sqlite',
  open: async () => wrap(await openDataSource('sqlite::memory:'), async () => undefined),
};

const postgres: TestDriver = {
  name: 'postgres',
  open: async () => {
    const scratch = await createScratchDatabase();
    return wrap(await openDataSource(scratch.url), scratch.drop);
  },
};

function wrap(dataSource: DataSource, drop: () => Promise<void>): TestDatabase {
  return {
    dataSource,
    stores: TypeOrmStores.forDataSource(dataSource),
    transactor: new TypeOrmTransactor(dataSource),
    dispose: async () => {
      await dataSource.destroy();
      await drop();
    },
  };
}

/** SQLite always; Postgres when reachable, and always under CI=true. */
export function registeredDrivers(): TestDriver[] {
  return postgresSuiteEnabled('the Postgres storage contract suite') ? [sqlite, postgres] : [sqlite];
}
