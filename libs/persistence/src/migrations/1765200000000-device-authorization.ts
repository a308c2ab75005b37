import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

const USER_CODE_INDEX = 'uq_device_authorizations_user_code_hash';
const EXPIRES_INDEX = 'idx_device_authorizations_expires_at';

/**
 * The device authorization grant (RFC 8628, docs/tokens.md "Device flow"): one row per request,
 * keyed by the device code's hash, its user code's hash unique; pruned by expiry (the retention
 * sweep reads `expires_at` by its index).
 */
export class DeviceAuthorization1765200000000 implements MigrationInterface {
  name = 'DeviceAuthorization1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const millis = (name: string, isNullable = false) => ({ name, type: 'bigint', isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'device_authorizations',
        columns: [
          { name: 'device_code_hash', type: 'varchar', isPrimary: true },
          { name: 'user_code_hash', type: 'varchar' },
          { name: 'grant_id', type: 'varchar' },
          { name: 'client_id', type: 'varchar' },
          { name: 'scopes', type: 'text' },
          { name: 'status', type: 'varchar' },
          { name: 'user_id', type: 'varchar', isNullable: true },
          millis('created_at'),
          millis('expires_at'),
          { name: 'interval_seconds', type: 'integer' },
          millis('last_polled_at', true),
          millis('decided_at', true),
          millis('consumed_at', true),
        ],
      }),
    );
    await queryRunner.createIndex(
      'device_authorizations',
      new TableIndex({ name: USER_CODE_INDEX, columnNames: ['user_code_hash'], isUnique: true }),
    );
    await queryRunner.createIndex(
      'device_authorizations',
      new TableIndex({ name: EXPIRES_INDEX, columnNames: ['expires_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('device_authorizations');
  }
}
