import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** The definitions sidecar services run on (docs/rate-limits.md), and their feed's sequence. */
export class ServiceDefinitions1764400000000 implements MigrationInterface {
  name = 'ServiceDefinitions1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'service_definitions',
        columns: [
          { name: 'kind', type: 'varchar', isPrimary: true },
          { name: 'tenant', type: 'varchar', isPrimary: true },
          { name: 'name', type: 'varchar', isPrimary: true },
          { name: 'document', type: 'text', isNullable: true },
          { name: 'version', type: 'integer' },
          { name: 'seq', type: 'bigint' },
          { name: 'updated_at', type: 'bigint' },
        ],
        indices: [
          new TableIndex({ name: 'uq_service_definitions_seq', columnNames: ['seq'], isUnique: true }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'service_definition_sequence',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'last_seq', type: 'bigint' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('service_definition_sequence');
    await queryRunner.dropTable('service_definitions');
  }
}
