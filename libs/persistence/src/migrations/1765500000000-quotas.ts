import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * The per-tenant quota service (docs/plans.md): each window's durable count, and the
 * acknowledged consumptions with their idempotency keys, pruned once their window has ended.
 * Plans and subscriptions are service definitions: no table of their own.
 */
export class Quotas1765500000000 implements MigrationInterface {
  name = 'Quotas1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'quota_usage',
        columns: [
          { name: 'tenant', type: 'varchar', isPrimary: true },
          { name: 'meter', type: 'varchar', isPrimary: true },
          { name: 'period_start', type: 'bigint', isPrimary: true },
          { name: 'period_end', type: 'bigint' },
          { name: 'used', type: 'bigint' },
          { name: 'limit_units', type: 'bigint' },
          { name: 'notified', type: 'varchar', default: "''" },
          { name: 'updated_at', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'quota_consumptions',
        columns: [
          { name: 'tenant', type: 'varchar', isPrimary: true },
          { name: 'meter', type: 'varchar', isPrimary: true },
          { name: 'period_start', type: 'bigint', isPrimary: true },
          { name: 'idempotency_key', type: 'varchar', isPrimary: true },
          { name: 'period_end', type: 'bigint' },
          { name: 'units', type: 'bigint' },
          { name: 'used_after', type: 'bigint' },
          { name: 'recorded_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_quota_consumptions_period_end', columnNames: ['period_end'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('quota_consumptions');
    await queryRunner.dropTable('quota_usage');
  }
}
