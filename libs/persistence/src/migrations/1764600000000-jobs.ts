import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** The job queue: jobs with their leases, and their events (docs/jobs.md). */
export class Jobs1764600000000 implements MigrationInterface {
  name = 'Jobs1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const optional = (name: string, type: string) => ({ name, type, isNullable: true });
    await queryRunner.createTable(
      new Table({
        name: 'jobs',
        columns: [
          { name: 'id', type: 'varchar', isPrimary: true },
          { name: 'tenant', type: 'varchar' },
          { name: 'type', type: 'varchar' },
          { name: 'payload', type: 'text' },
          { name: 'state', type: 'varchar' },
          optional('idempotency_key', 'varchar'),
          { name: 'submitted_by', type: 'varchar' },
          { name: 'timeout_seconds', type: 'integer' },
          { name: 'max_attempts', type: 'integer' },
          { name: 'initial_backoff_seconds', type: 'integer' },
          { name: 'max_backoff_seconds', type: 'integer' },
          { name: 'attempt', type: 'integer' },
          { name: 'run_after', type: 'bigint' },
          optional('lease_id', 'varchar'),
          optional('lease_worker', 'varchar'),
          optional('lease_expires_at', 'bigint'),
          optional('deadline_at', 'bigint'),
          optional('finished_at', 'bigint'),
          optional('output', 'text'),
          optional('error_code', 'varchar'),
          optional('error_message', 'text'),
          { name: 'created_at', type: 'bigint' },
          { name: 'updated_at', type: 'bigint' },
        ],
        indices: [
          new TableIndex({
            name: 'uq_jobs_idempotency',
            columnNames: ['tenant', 'idempotency_key'],
            isUnique: true,
          }),
          new TableIndex({ name: 'ix_jobs_claim', columnNames: ['state', 'type', 'run_after'] }),
          new TableIndex({ name: 'ix_jobs_tenant', columnNames: ['tenant', 'id'] }),
          new TableIndex({ name: 'ix_jobs_lease', columnNames: ['state', 'lease_expires_at'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'job_events',
        columns: [
          {
            name: 'id',
            type: postgres ? 'bigint' : 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'job_id', type: 'varchar' },
          { name: 'kind', type: 'varchar' },
          { name: 'attempt', type: 'integer' },
          { name: 'at', type: 'bigint' },
          optional('state', 'varchar'),
          optional('line', 'text'),
        ],
        indices: [new TableIndex({ name: 'ix_job_events_job', columnNames: ['job_id', 'kind', 'id'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('job_events');
    await queryRunner.dropTable('jobs');
  }
}
