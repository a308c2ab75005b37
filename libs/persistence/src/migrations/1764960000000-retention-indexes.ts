import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/** The expiry columns the retention sweep deletes by (libs/domain `RetentionSweep`). */
const EXPIRY_INDEXES: ReadonlyArray<[table: string, name: string]> = [
  ['authorization_codes', 'idx_authorization_codes_expires_at'],
  ['sessions', 'idx_sessions_expires_at'],
  ['refresh_tokens', 'idx_refresh_tokens_expires_at'],
];

export class RetentionIndexes1764960000000 implements MigrationInterface {
  name = 'RetentionIndexes1764960000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, name] of EXPIRY_INDEXES)
      await queryRunner.createIndex(table, new TableIndex({ name, columnNames: ['expires_at'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, name] of EXPIRY_INDEXES) await queryRunner.dropIndex(table, name);
  }
}
