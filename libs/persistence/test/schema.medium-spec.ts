import type { DataSource, Table } from 'typeorm';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata';
import { databaseDrivers, type SqlTestDatabase } from './support/drivers';

/** Entities are never synchronized, so this is what catches drift from the migrations. */
for (const driver of databaseDrivers()) {
  describe(`the migrated schema on ${driver.name}`, () => {
    let database: SqlTestDatabase;

    beforeAll(async () => {
      database = await driver.open();
    });
    afterAll(async () => {
      await database.dispose();
    });

    it('has exactly the columns the entities map, with the same keys and nullability', async () => {
      const tables = await loadTables(database.dataSource);

      for (const metadata of database.dataSource.entityMetadatas) {
        expect(columnsOf(tables.get(metadata.tableName))).toEqual(entityColumns(metadata));
      }
    });

    it('has the indexes and unique constraints the entities declare', async () => {
      const tables = await loadTables(database.dataSource);

      for (const metadata of database.dataSource.entityMetadatas) {
        const table = tables.get(metadata.tableName);
        expect(table?.indices.map((index) => index.name).sort()).toEqual(
          metadata.indices.map((index) => index.name).sort(),
        );
        expect(table?.uniques.map((unique) => unique.name).sort()).toEqual(
          metadata.uniques.map((unique) => unique.name).sort(),
        );
      }
    });

    it('has no migration left to run', async () => {
      await expect(database.dataSource.showMigrations()).resolves.toBe(false);
    });
  });
}

async function loadTables(dataSource: DataSource): Promise<Map<string, Table>> {
  const runner = dataSource.createQueryRunner();
  try {
    const tables = await runner.getTables(dataSource.entityMetadatas.map((m) => m.tableName));
    return new Map(tables.map((table) => [table.name, table]));
  } finally {
    await runner.release();
  }
}

function columnsOf(table: Table | undefined) {
  return (table?.columns ?? [])
    .map((c) => ({ name: c.name, nullable: c.isNullable, primary: c.isPrimary, generated: c.isGenerated }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function entityColumns(metadata: EntityMetadata) {
  return metadata.columns
    .map((c) => ({
      name: c.databaseName,
      nullable: c.isNullable,
      primary: c.isPrimary,
      generated: c.isGenerated,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
