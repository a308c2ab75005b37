import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * DPoP (RFC 9449, docs/tokens.md "DPoP"): an app may require a proof at every token request
 * (`dpop_bound_access_tokens`, false for every existing app), and a public client's refresh
 * token remembers the key it is bound to (null: not bound, as every token issued before).
 */
export class Dpop1765400000000 implements MigrationInterface {
  name = 'Dpop1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'applications',
      new TableColumn({ name: 'dpop_bound_access_tokens', type: 'boolean', default: false }),
    );
    await queryRunner.addColumn(
      'refresh_tokens',
      new TableColumn({ name: 'dpop_jkt', type: 'varchar', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('refresh_tokens', 'dpop_jkt');
    await queryRunner.dropColumn('applications', 'dpop_bound_access_tokens');
  }
}
