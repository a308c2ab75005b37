import type { Stores, Transactor } from '@platform/domain';
import { registeredDrivers, type TestDatabase } from './drivers';

/** What a contract suite may use: the domain interfaces only, so any implementation fits. */
export interface StoreContext {
  stores: Stores;
  transactor: Transactor;
}

export type Contract = (context: () => StoreContext) => void;

/**
 * Runs a contract on every registered driver (the in-memory fakes, SQLite, Postgres). Each file
 * gets its own database; every test starts from empty stores, so no test depends on another.
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
        await opened().reset();
      });

      const opened = (): TestDatabase => {
        if (!database) throw new Error(`the ${driver.name} test database did not open`);
        return database;
      };
      contract(() => opened());
    });
  }
}
