import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { redirectUriKey } from '../entities/application.entity';

/**
 * The app login finds the app of a `return_to` by an index instead of paging through every
 * application: one row per registered redirect URI and app, filled here from the apps there are.
 */
export class RedirectUriIndex1764937000000 implements MigrationInterface {
  name = 'RedirectUriIndex1764937000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'application_redirect_uris',
        columns: [
          { name: 'uri_hash', type: 'varchar', isPrimary: true },
          { name: 'client_id', type: 'varchar', isPrimary: true },
        ],
        indices: [
          new TableIndex({ name: 'idx_application_redirect_uris_client_id', columnNames: ['client_id'] }),
        ],
      }),
    );
    const apps: Array<{ client_id: string; redirect_uris: string }> = await queryRunner.query(
      'SELECT client_id, redirect_uris FROM applications',
    );
    const rows = apps.flatMap((app) =>
      [...new Set(JSON.parse(app.redirect_uris) as string[])].map((uri) => ({
        uri_hash: redirectUriKey(uri),
        client_id: app.client_id,
      })),
    );
    // Two parameters a row: a batch stays under SQLite's oldest bound of 999.
    for (let start = 0; start < rows.length; start += 400) {
      await queryRunner.manager
        .createQueryBuilder()
        .insert()
        .into('application_redirect_uris', ['uri_hash', 'client_id'])
        .values(rows.slice(start, start + 400))
        .execute();
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('application_redirect_uris');
  }
}
