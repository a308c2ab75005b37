import { AUDIT_GENESIS_HASH, type Stores, type Transactor } from '@platform/domain';
import type { DataSource } from 'typeorm';
import {
  autocommitting,
  InMemoryStores,
  InMemoryTransactor,
} from '../../../domain/src/testing/in-memory-stores';
import { openDataSource, TypeOrmStores, TypeOrmTransactor } from '../../src';
import { createScratchDatabase, postgresSuiteEnabled } from './postgres';

/** A store implementation of its own for one test file: a migrated database, or the fakes. */
export interface TestDatabase {
  stores: Stores;
  transactor: Transactor;
  /** Back to empty stores, before every test. */
  reset(): Promise<void>;
  dispose(): Promise<void>;
}

export interface SqlTestDatabase extends TestDatabase {
  dataSource: DataSource;
}

export interface TestDriver<Database extends TestDatabase = TestDatabase> {
  name: 'sqlite' | 'postgres' | 'memory';
  open(): Promise<Database>;
}

/**
 * The in-memory fakes the domain's unit specs run on, held to the same contract as the real
 * stores (as Hydra runs its manager tests on the memory driver), so a unit spec can never pass
 * on behaviour the databases do not have.
 */
const memory: TestDriver = {
  name: 'memory',
  open: async () => {
    const fresh = () => {
      const raw = new InMemoryStores();
      const transactor = new InMemoryTransactor(raw);
      return { stores: autocommitting(raw, transactor), transactor };
    };
    let current = fresh();
    return {
      get stores() {
        return current.stores;
      },
      get transactor() {
        return current.transactor;
      },
      reset: async () => {
        current = fresh();
      },
      dispose: async () => undefined,
    };
  },
};

const sqlite: TestDriver<SqlTestDatabase> = {
  name: 'sqlite',
  open: async () => wrap(await openDataSource('sqlite::memory:'), async () => undefined),
};

const postgres: TestDriver<SqlTestDatabase> = {
  name: 'postgres',
  open: async () => {
    const scratch = await createScratchDatabase();
    return wrap(await openDataSource(scratch.url), scratch.drop);
  },
};

function wrap(dataSource: DataSource, drop: () => Promise<void>): SqlTestDatabase {
  return {
    dataSource,
    stores: TypeOrmStores.forDataSource(dataSource),
    transactor: new TypeOrmTransactor(dataSource),
    reset: () => emptyTables(dataSource),
    dispose: async () => {
      await dataSource.destroy();
      await drop();
    },
  };
}

async function emptyTables(dataSource: DataSource): Promise<void> {
  for (const entity of dataSource.entityMetadatas) {
    await dataSource.createQueryBuilder().delete().from(entity.target).execute();
  }
  // The chain head and the dispatch cursor are rows the migrations create: empty means back to them.
  await dataSource.query(
    `INSERT INTO audit_chain_head (id, last_sequence_id, last_hash) VALUES (1, 0, '${AUDIT_GENESIS_HASH}')`,
  );
  await dataSource.query('INSERT INTO webhook_dispatch_cursor (id, last_sequence_id) VALUES (1, 0)');
}

/** The fakes and SQLite always; Postgres when reachable, and always under CI=true. */
export function registeredDrivers(): TestDriver[] {
  return [memory, ...databaseDrivers()];
}

/** The real databases only, for what only they have (a schema, migrations). */
export function databaseDrivers(): Array<TestDriver<SqlTestDatabase>> {
  return postgresSuiteEnabled('the Postgres storage contract suite') ? [sqlite, postgres] : [sqlite];
}
