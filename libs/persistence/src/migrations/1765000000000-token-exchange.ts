import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

const RESOURCE_URI_INDEX = 'uq_applications_resource_uri';

/**
 * Token exchange and impersonation (docs/tokens.md): an app may be a resource server (its
 * resource URI, unique), may exchange tokens for some audiences and may ask for impersonation
 * tokens; each tenant may restrict impersonation. Existing apps are none of these.
 */
export class TokenExchange1765000000000 implements MigrationInterface {
  name = 'TokenExchange1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('applications', [
      new TableColumn({ name: 'resource_uri', type: 'varchar', isNullable: true }),
      new TableColumn({ name: 'exchange_audiences', type: 'text', default: "'[]'" }),
      new TableColumn({ name: 'may_impersonate', type: 'boolean', default: false }),
    ]);
    await queryRunner.createIndex(
      'applications',
      new TableIndex({ name: RESOURCE_URI_INDEX, columnNames: ['resource_uri'], isUnique: true }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'impersonation_policies',
        columns: [
          { name: 'tenant', type: 'varchar', isPrimary: true },
          { name: 'mode', type: 'varchar' },
          { name: 'updated_at', type: 'bigint' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('impersonation_policies');
    await queryRunner.dropIndex('applications', RESOURCE_URI_INDEX);
    await queryRunner.dropColumns('applications', ['resource_uri', 'exchange_audiences', 'may_impersonate']);
  }
}
