import { MigrationInterface, QueryRunner } from 'typeorm';

/** The text columns a store orders by or pages after with `>`, by table. */
const ORDERED_TEXT: ReadonlyArray<[table: string, column: string]> = [
  ['scopes', 'name'],
  ['secret_versions', 'name'],
  ['service_definitions', 'name'],
  ['signing_keys', 'kid'],
];

/**
 * Text ordered by code point on both databases, as `applications.client_id` is from the start:
 * SQLite compares bytes, Postgres by the database's collation, and an en_US one lists 'a' before
 * 'B' and '_' before '-'. The "C" collation compares bytes, so both list and page alike
 * (docs/decisions.md, "Where the two databases differ"). SQLite has nothing to change.
 */
export class CodePointOrder1764800000000 implements MigrationInterface {
  name = 'CodePointOrder1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.collate(queryRunner, '"C"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.collate(queryRunner, 'pg_catalog."default"');
  }

  private async collate(queryRunner: QueryRunner, collation: string): Promise<void> {
    if (queryRunner.connection.driver.options.type !== 'postgres') return;
    for (const [table, column] of ORDERED_TEXT)
      await queryRunner.query(
        `ALTER TABLE "${table}" ALTER COLUMN "${column}" TYPE varchar COLLATE ${collation}`,
      );
  }
}
