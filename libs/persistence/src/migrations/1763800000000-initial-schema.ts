import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';

const varchar = (name: string, extra: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
  name,
  type: 'varchar',
  ...extra,
});
const text = (name: string): TableColumnOptions => ({ name, type: 'text' });
const millis = (name: string, nullable = false): TableColumnOptions => ({
  name,
  type: 'bigint',
  isNullable: nullable,
});
/** SQLite allows AUTOINCREMENT only on INTEGER (already 64-bit); Postgres needs bigint. */
const serial = (name: string, postgres: boolean): TableColumnOptions => ({
  name,
  type: postgres ? 'bigint' : 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
});

/**
 * The whole first schema, through TypeORM's Table API so one migration serves SQLite and
 * Postgres. Times are bigint epoch milliseconds, arrays JSON text; no foreign keys, so each
 * table can be pruned on its own.
 */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await queryRunner.createTable(
      new Table({
        name: 'applications',
        columns: [
          // Bytewise order on Postgres too, so paging by client_id matches SQLite.
          varchar('client_id', { isPrimary: true, collation: postgres ? 'C' : undefined }),
          varchar('name'),
          varchar('app_type'),
          text('declared_scopes'),
          text('redirect_uris'),
          varchar('secret_hash', { isNullable: true }),
          millis('created_at'),
          millis('rotated_at', true),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'scopes',
        columns: [varchar('name', { isPrimary: true }), text('description'), millis('created_at')],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'signing_keys',
        columns: [
          varchar('kid', { isPrimary: true }),
          varchar('alg'),
          text('private_jwk'),
          text('public_jwk'),
          millis('created_at'),
          millis('retired_at', true),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'revocations',
        columns: [
          serial('seq', postgres),
          varchar('kind'),
          varchar('value'),
          millis('expires_at'),
          millis('created_at'),
        ],
        indices: [
          new TableIndex({ name: 'idx_revocations_kind_value', columnNames: ['kind', 'value'] }),
          new TableIndex({ name: 'idx_revocations_expires_at', columnNames: ['expires_at'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'token_events',
        columns: [
          serial('id', postgres),
          varchar('type'),
          varchar('client_id'),
          varchar('subject', { isNullable: true }),
          varchar('jti', { isNullable: true }),
          varchar('grant_id', { isNullable: true }),
          millis('occurred_at'),
        ],
        indices: [new TableIndex({ name: 'idx_token_events_client_id', columnNames: ['client_id'] })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          varchar('id', { isPrimary: true }),
          varchar('issuer'),
          varchar('subject'),
          varchar('email', { isNullable: true }),
          varchar('name', { isNullable: true }),
          varchar('tenant'),
          text('roles'),
          millis('created_at'),
          millis('updated_at'),
        ],
        uniques: [{ name: 'uq_users_issuer_subject', columnNames: ['issuer', 'subject'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'authorization_codes',
        columns: [
          varchar('code_hash', { isPrimary: true }),
          varchar('grant_id'),
          varchar('client_id'),
          varchar('user_id'),
          text('redirect_uri'),
          text('scopes'),
          varchar('code_challenge'),
          varchar('code_challenge_method'),
          millis('created_at'),
          millis('expires_at'),
          millis('consumed_at', true),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'refresh_tokens',
        columns: [
          varchar('token_hash', { isPrimary: true }),
          varchar('grant_id'),
          varchar('client_id'),
          varchar('user_id'),
          text('scopes'),
          millis('created_at'),
          millis('expires_at'),
          millis('rotated_at', true),
          millis('revoked_at', true),
        ],
        indices: [
          new TableIndex({ name: 'idx_refresh_tokens_grant_id', columnNames: ['grant_id'] }),
          new TableIndex({ name: 'idx_refresh_tokens_client_id', columnNames: ['client_id'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'refresh_tokens',
      'authorization_codes',
      'users',
      'token_events',
      'revocations',
      'signing_keys',
      'scopes',
      'applications',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}
