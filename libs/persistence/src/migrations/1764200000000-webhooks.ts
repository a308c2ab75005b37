import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** Webhook endpoints, their deliveries and attempts, and the dispatcher's cursor (docs/webhooks.md). */
export class Webhooks1764200000000 implements MigrationInterface {
  name = 'Webhooks1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await queryRunner.createTable(
      new Table({
        name: 'webhook_endpoints',
        columns: [
          { name: 'id', type: 'varchar', isPrimary: true },
          { name: 'url', type: 'text' },
          { name: 'description', type: 'text' },
          { name: 'event_types', type: 'text' },
          { name: 'tenant', type: 'varchar', isNullable: true },
          { name: 'disabled_at', type: 'bigint', isNullable: true },
          { name: 'secret', type: 'varchar' },
          { name: 'previous_secret', type: 'varchar', isNullable: true },
          { name: 'previous_secret_expires_at', type: 'bigint', isNullable: true },
          { name: 'start_after_sequence', type: 'bigint' },
          { name: 'created_at', type: 'bigint' },
          { name: 'updated_at', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          {
            name: 'id',
            type: postgres ? 'bigint' : 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'endpoint_id', type: 'varchar' },
          { name: 'sequence_id', type: 'bigint' },
          { name: 'event_type', type: 'varchar' },
          { name: 'state', type: 'varchar' },
          { name: 'attempts', type: 'integer' },
          { name: 'next_attempt_at', type: 'bigint' },
          { name: 'lease_until', type: 'bigint', isNullable: true },
          { name: 'replay_of', type: 'bigint', isNullable: true },
          { name: 'created_at', type: 'bigint' },
        ],
        indices: [
          // A claim reads each endpoint's due deliveries and counts the leased ones: both by index.
          new TableIndex({
            name: 'idx_webhook_deliveries_due',
            columnNames: ['endpoint_id', 'state', 'next_attempt_at'],
          }),
          new TableIndex({ name: 'idx_webhook_deliveries_leased', columnNames: ['lease_until'] }),
          new TableIndex({ name: 'idx_webhook_deliveries_endpoint', columnNames: ['endpoint_id', 'id'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_attempts',
        columns: [
          { name: 'delivery_id', type: 'bigint', isPrimary: true },
          { name: 'attempt', type: 'integer', isPrimary: true },
          { name: 'at', type: 'bigint' },
          { name: 'duration_ms', type: 'integer' },
          { name: 'status', type: 'integer', isNullable: true },
          { name: 'error', type: 'text', isNullable: true },
          { name: 'response_excerpt', type: 'text', isNullable: true },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_dispatch_cursor',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'last_sequence_id', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.query('INSERT INTO webhook_dispatch_cursor (id, last_sequence_id) VALUES (1, 0)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_dispatch_cursor');
    await queryRunner.dropTable('webhook_attempts');
    await queryRunner.dropTable('webhook_deliveries');
    await queryRunner.dropTable('webhook_endpoints');
  }
}
