import type { Stores, Transactor } from '@platform/domain';
import type { DataSource } from 'typeorm';
import { openDataSource, TypeOrmStores, TypeOrmTransactor } from '../../src';
import { createScratchDatabase, postgresReachable, POSTGRES_ADMIN_URL } from './postgres';

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

/**
 * SQLite always; Postgres when reachable. Unreachable Postgres fails the run under CI=true and
 * is skipped loudly elsewhere, by not registering the driver (no skipped test counts as passed).
 */
export function registeredDrivers(): TestDriver[] {
  if (postgresReachable()) return [sqlite, postgres];
  const where = new URL(POSTGRES_ADMIN_URL).host;
  if (process.env.CI === 'true') {
    throw new Error(`Postgres at ${where} is unreachable; CI must run the Postgres contract suite`);
  }
  console.warn(
    `\n!!! Postgres at ${where} is unreachable: the Postgres storage contract suite is SKIPPED.\n` +
      '!!! Only SQLite was checked. Set TEST_DATABASE_URL or start Postgres to run it.\n',
  );
  return [sqlite];
}
