import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * A job's lease records the tenant its worker is bound to, beside its client_id: heartbeats,
 * log lines and completions are taken from that worker only (docs/jobs.md, "Lease identity").
 * A lease taken before this has none: its worker was taken for unbound, as it was then.
 */
export class JobLeaseHolder1764700000000 implements MigrationInterface {
  name = 'JobLeaseHolder1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'jobs',
      new TableColumn({ name: 'lease_worker_tenant', type: 'varchar', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('jobs', 'lease_worker_tenant');
  }
}
