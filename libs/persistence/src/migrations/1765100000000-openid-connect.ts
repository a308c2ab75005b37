import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

const SESSION_INDEX = 'idx_refresh_tokens_sid';

const sessionColumns = () => [
  new TableColumn({ name: 'sid', type: 'varchar', isNullable: true }),
  new TableColumn({ name: 'auth_time', type: 'bigint', isNullable: true }),
];

/**
 * OpenID Connect (docs/openid-connect.md): a code remembers the request's nonce and the session
 * it was approved in; a refresh-token family carries the session on, so the ID tokens of a
 * refresh keep `sid` and `auth_time` and a session's end finds the grants it began. Codes and
 * families from before carry no session: their ID tokens have neither claim.
 */
export class OpenIdConnect1765100000000 implements MigrationInterface {
  name = 'OpenIdConnect1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('authorization_codes', [
      new TableColumn({ name: 'nonce', type: 'text', isNullable: true }),
      ...sessionColumns(),
    ]);
    await queryRunner.addColumns('refresh_tokens', sessionColumns());
    await queryRunner.createIndex('refresh_tokens', new TableIndex({ name: SESSION_INDEX, columnNames: ['sid'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('refresh_tokens', SESSION_INDEX);
    await queryRunner.dropColumns('refresh_tokens', ['sid', 'auth_time']);
    await queryRunner.dropColumns('authorization_codes', ['nonce', 'sid', 'auth_time']);
  }
}
