import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** Browser sessions of the authorization code flow; same conventions as the initial schema. */
export class Sessions1764000000000 implements MigrationInterface {
  name = 'Sessions1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'sessions',
        columns: [
          { name: 'session_hash', type: 'varchar', isPrimary: true },
          { name: 'user_id', type: 'varchar' },
          { name: 'created_at', type: 'bigint' },
          { name: 'expires_at', type: 'bigint' },
          { name: 'ended_at', type: 'bigint', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'idx_sessions_user_id', columnNames: ['user_id'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('sessions');
  }
}
