import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

/**
 * OpenID Connect logout (docs/openid-connect.md): an app's registered `post_logout_redirect_uris`
 * and `backchannel_logout_uri` (existing apps have neither), and the back-channel logout outbox,
 * delivered and retried as webhooks are.
 */
export class LogoutUris1765150000000 implements MigrationInterface {
  name = 'LogoutUris1765150000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await queryRunner.addColumns('applications', [
      new TableColumn({ name: 'post_logout_redirect_uris', type: 'text', default: "'[]'" }),
      new TableColumn({ name: 'backchannel_logout_uri', type: 'text', isNullable: true }),
    ]);
    await queryRunner.createTable(
      new Table({
        name: 'backchannel_logouts',
        columns: [
          {
            name: 'id',
            type: postgres ? 'bigint' : 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'client_id', type: 'varchar' },
          { name: 'subject', type: 'varchar' },
          { name: 'sid', type: 'varchar' },
          { name: 'tenant', type: 'varchar', isNullable: true },
          { name: 'state', type: 'varchar' },
          { name: 'attempts', type: 'integer' },
          { name: 'next_attempt_at', type: 'bigint' },
          { name: 'lease_until', type: 'bigint', isNullable: true },
          { name: 'last_status', type: 'integer', isNullable: true },
          { name: 'last_error', type: 'text', isNullable: true },
          { name: 'created_at', type: 'bigint' },
        ],
        indices: [
          // A claim reads the due pending rows by this index; the sweep the finished ones.
          new TableIndex({ name: 'idx_backchannel_logouts_due', columnNames: ['state', 'next_attempt_at'] }),
          new TableIndex({ name: 'idx_backchannel_logouts_sid', columnNames: ['sid'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('backchannel_logouts');
    await queryRunner.dropColumns('applications', ['post_logout_redirect_uris', 'backchannel_logout_uri']);
  }
}
