import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * SAML sign-in (docs/saml.md): each tenant's identity provider (one per tenant, its metadata's
 * entity id, SSO URL and certificates, the attribute and role mappings), and the AuthnRequests
 * sent, single use, pruned by expiry. Used assertion ids go to `assertion_uses` (1765300000000).
 */
export class Saml1765600000000 implements MigrationInterface {
  name = 'Saml1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'saml_identity_providers',
        columns: [
          { name: 'tenant', type: 'varchar', isPrimary: true },
          { name: 'entity_id', type: 'text' },
          { name: 'sso_url', type: 'text' },
          { name: 'certificates', type: 'text' },
          { name: 'attribute_mapping', type: 'text' },
          { name: 'role_mapping', type: 'text' },
          { name: 'want_response_signed', type: 'boolean' },
          { name: 'name_id_format', type: 'varchar', isNullable: true },
          { name: 'created_at', type: 'bigint' },
          { name: 'updated_at', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'saml_requests',
        columns: [
          { name: 'id', type: 'varchar', isPrimary: true },
          { name: 'tenant', type: 'varchar' },
          { name: 'created_at', type: 'bigint' },
          { name: 'expires_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_saml_requests_expires_at', columnNames: ['expires_at'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('saml_requests');
    await queryRunner.dropTable('saml_identity_providers');
  }
}
