import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** Tenants' secrets, one row per version, values sealed (docs/secrets.md). */
export class Secrets1764500000000 implements MigrationInterface {
  name = 'Secrets1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'secret_versions',
        columns: [
          { name: 'tenant', type: 'varchar', isPrimary: true },
          { name: 'name', type: 'varchar', isPrimary: true },
          { name: 'version', type: 'integer', isPrimary: true },
          { name: 'ciphertext', type: 'text', isNullable: true },
          { name: 'wrapped_key', type: 'varchar', isNullable: true },
          { name: 'kek_id', type: 'varchar', isNullable: true },
          { name: 'created_at', type: 'bigint' },
          { name: 'deleted_at', type: 'bigint', isNullable: true },
          { name: 'destroyed', type: 'boolean', default: false },
        ],
        indices: [new TableIndex({ name: 'ix_secret_versions_kek', columnNames: ['kek_id'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('secret_versions');
  }
}
