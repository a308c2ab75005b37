import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex, TableUnique } from 'typeorm';

/**
 * SCIM provisioning (docs/scim.md): users gain the SCIM attributes and may exist before their
 * first login (issuer and subject null), groups carry roles to their members, a user's refresh
 * tokens can be found to revoke them all at deprovisioning, and a service app can be bound to
 * the tenant it provisions.
 */
export class Scim1764300000000 implements MigrationInterface {
  name = 'Scim1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['issuer', 'subject']) {
      // On Postgres in place; SQLite cannot alter a column, and TypeORM rebuilds the table, rows kept.
      if (queryRunner.connection.driver.options.type === 'postgres') {
        await queryRunner.query(`ALTER TABLE "users" ALTER COLUMN "${name}" DROP NOT NULL`);
      } else {
        await queryRunner.changeColumn(
          'users',
          name,
          new TableColumn({ name, type: 'varchar', isNullable: true }),
        );
      }
    }
    await queryRunner.addColumn(
      'applications',
      new TableColumn({ name: 'tenant', type: 'varchar', isNullable: true }),
    );
    await queryRunner.addColumns('users', [
      new TableColumn({ name: 'user_name', type: 'varchar', isNullable: true }),
      new TableColumn({ name: 'user_name_key', type: 'varchar', isNullable: true }),
      new TableColumn({ name: 'external_id', type: 'varchar', isNullable: true }),
      new TableColumn({ name: 'active', type: 'boolean', default: true }),
      new TableColumn({ name: 'profile', type: 'text', isNullable: true }),
      new TableColumn({ name: 'version', type: 'integer', default: 1 }),
    ]);
    await queryRunner.createUniqueConstraint(
      'users',
      new TableUnique({ name: 'uq_users_tenant_user_name', columnNames: ['tenant', 'user_name_key'] }),
    );
    await queryRunner.createIndex(
      'users',
      new TableIndex({ name: 'idx_users_tenant_external_id', columnNames: ['tenant', 'external_id'] }),
    );
    await queryRunner.createIndex(
      'refresh_tokens',
      new TableIndex({ name: 'idx_refresh_tokens_user_id', columnNames: ['user_id'] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'user_groups',
        columns: [
          { name: 'id', type: 'varchar', isPrimary: true },
          { name: 'tenant', type: 'varchar' },
          { name: 'display_name', type: 'varchar' },
          { name: 'external_id', type: 'varchar', isNullable: true },
          { name: 'roles', type: 'text' },
          { name: 'version', type: 'integer' },
          { name: 'created_at', type: 'bigint' },
          { name: 'updated_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_user_groups_tenant', columnNames: ['tenant'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'user_group_members',
        columns: [
          { name: 'group_id', type: 'varchar', isPrimary: true },
          { name: 'user_id', type: 'varchar', isPrimary: true },
        ],
        indices: [new TableIndex({ name: 'idx_user_group_members_user_id', columnNames: ['user_id'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('user_group_members');
    await queryRunner.dropTable('user_groups');
    await queryRunner.dropIndex('refresh_tokens', 'idx_refresh_tokens_user_id');
    await queryRunner.dropIndex('users', 'idx_users_tenant_external_id');
    await queryRunner.dropUniqueConstraint('users', 'uq_users_tenant_user_name');
    await queryRunner.dropColumns('users', [
      'user_name',
      'user_name_key',
      'external_id',
      'active',
      'profile',
      'version',
    ]);
    await queryRunner.dropColumn('applications', 'tenant');
  }
}
