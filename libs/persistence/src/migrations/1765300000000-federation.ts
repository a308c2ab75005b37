import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

/**
 * private_key_jwt and workload identity federation (docs/workload-identity.md): how an app
 * authenticates and its keys (existing apps have neither: they keep their secrets); the used
 * assertions, unique by key and pruned by expiry; a tenant's trusted issuers, one per issuer per
 * tenant, found by issuer at every exchange.
 */
export class Federation1765300000000 implements MigrationInterface {
  name = 'Federation1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('applications', [
      new TableColumn({ name: 'token_endpoint_auth_method', type: 'varchar', isNullable: true }),
      new TableColumn({ name: 'jwks', type: 'text', isNullable: true }),
      new TableColumn({ name: 'jwks_uri', type: 'text', isNullable: true }),
    ]);
    await queryRunner.createTable(
      new Table({
        name: 'assertion_uses',
        columns: [
          { name: 'assertion_key', type: 'varchar', isPrimary: true },
          { name: 'expires_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_assertion_uses_expires_at', columnNames: ['expires_at'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'federated_issuers',
        columns: [
          { name: 'id', type: 'varchar', isPrimary: true },
          { name: 'tenant', type: 'varchar' },
          { name: 'issuer', type: 'varchar' },
          { name: 'jwks_uri', type: 'text', isNullable: true },
          { name: 'rules', type: 'text' },
          { name: 'created_at', type: 'bigint' },
          { name: 'updated_at', type: 'bigint' },
        ],
        indices: [
          new TableIndex({
            name: 'uq_federated_issuers_tenant_issuer',
            columnNames: ['tenant', 'issuer'],
            isUnique: true,
          }),
          new TableIndex({ name: 'idx_federated_issuers_issuer', columnNames: ['issuer'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('federated_issuers');
    await queryRunner.dropTable('assertion_uses');
    await queryRunner.dropColumns('applications', ['token_endpoint_auth_method', 'jwks', 'jwks_uri']);
  }
}
