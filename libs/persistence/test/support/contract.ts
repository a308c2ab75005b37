import type { Stores, Transactor } from '@platform/domain';
import type { DataSource } from 'typeorm';
import { registeredDrivers, type TestDatabase } from './drivers';

/** What a contract suite may use: the domain interfaces only, so any implementation fits. */
export interface StoreContext {
  stores: Stores;
  transactor: Transactor;
}

export type Contract = (context: () => StoreContext) => void;

/**
 * Runs a contract on every registered driver. Each file gets its own database; every test
 * starts from empty tables, so no test depends on another.
 */
export function describeContract(name: string, contract: Contract): void {
  for (const driver of registeredDrivers()) {
    describe(`${name} on ${driver.name}`, () => {
      let database: TestDatabase | undefined;

      beforeAll(async () => {
        database = await driver.open();
      });
      afterAll(async () => {
        await database?.dispose();
      });
      beforeEach(async () => {
        await emptyTables(opened().dataSource);
      });

      const opened = (): TestDatabase => {
        if (!database) throw new Error(`the ${driver.name} test database did not open`);
        return database;
      };
      contract(() => opened());
    });
  }
}

async function emptyTables(dataSource: DataSource): Promise<void> {
  for (const entity of dataSource.entityMetadatas) {
    await dataSource.createQueryBuilder().delete().from(entity.target).execute();
  }
}
