import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

const GENESIS_HASH = '0'.repeat(64);

/** The hash-chained audit log, its one-row chain head and its signed checkpoints (docs/audit.md). */
export class AuditLog1764100000000 implements MigrationInterface {
  name = 'AuditLog1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'audit_records',
        columns: [
          { name: 'sequence_id', type: 'bigint', isPrimary: true },
          { name: 'previous_hash', type: 'varchar' },
          { name: 'record_hash', type: 'varchar' },
          { name: 'tenant', type: 'varchar', isNullable: true },
          { name: 'actor_kind', type: 'varchar' },
          { name: 'actor_id', type: 'varchar' },
          { name: 'action', type: 'varchar' },
          { name: 'target', type: 'varchar', isNullable: true },
          { name: 'outcome', type: 'varchar' },
          { name: 'occurred_at', type: 'bigint' },
          { name: 'correlation_id', type: 'varchar', isNullable: true },
          { name: 'attributes', type: 'text' },
        ],
        indices: [
          new TableIndex({ name: 'idx_audit_records_tenant', columnNames: ['tenant', 'sequence_id'] }),
          new TableIndex({ name: 'idx_audit_records_action', columnNames: ['action', 'sequence_id'] }),
          new TableIndex({ name: 'idx_audit_records_actor', columnNames: ['actor_id', 'sequence_id'] }),
          new TableIndex({ name: 'idx_audit_records_target', columnNames: ['target', 'sequence_id'] }),
          new TableIndex({ name: 'idx_audit_records_occurred_at', columnNames: ['occurred_at'] }),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'audit_chain_head',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'last_sequence_id', type: 'bigint' },
          { name: 'last_hash', type: 'varchar' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'audit_checkpoints',
        columns: [
          { name: 'tree_size', type: 'bigint', isPrimary: true },
          { name: 'root_hash', type: 'varchar' },
          { name: 'signed', type: 'text' },
          { name: 'created_at', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.query(
      `INSERT INTO audit_chain_head (id, last_sequence_id, last_hash) VALUES (1, 0, '${GENESIS_HASH}')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_checkpoints');
    await queryRunner.dropTable('audit_chain_head');
    await queryRunner.dropTable('audit_records');
  }
}
