import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

const column = (isNullable: boolean) =>
  new TableColumn({ name: 'family_created_at', type: 'bigint', isNullable });

/**
 * Each refresh token carries when its family began, so the family ends at its absolute lifetime
 * however often it is rotated (REFRESH_TOKEN_ABSOLUTE_LIFETIME_DAYS, docs/tokens.md). A family
 * issued before this began at its oldest stored token: every rotated token is still stored (the
 * retention sweep starts with this release), so that is its real start, and a family older than
 * the lifetime ends at the upgrade (its user signs in again).
 */
export class RefreshFamilyStart1764980000000 implements MigrationInterface {
  name = 'RefreshFamilyStart1764980000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('refresh_tokens', column(true));
    await queryRunner.query(
      `UPDATE refresh_tokens SET family_created_at =
         (SELECT MIN(f.created_at) FROM refresh_tokens f WHERE f.grant_id = refresh_tokens.grant_id)`,
    );
    await queryRunner.changeColumn('refresh_tokens', 'family_created_at', column(false));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('refresh_tokens', 'family_created_at');
  }
}
