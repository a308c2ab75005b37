import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, numericId } from '../transformers';

/** One link of the audit chain. Append-only: nothing updates or deletes a row. */
@Entity('audit_records')
@Index('idx_audit_records_tenant', ['tenant', 'sequenceId'])
@Index('idx_audit_records_action', ['action', 'sequenceId'])
@Index('idx_audit_records_actor', ['actorId', 'sequenceId'])
@Index('idx_audit_records_target', ['target', 'sequenceId'])
@Index('idx_audit_records_occurred_at', ['occurredAt'])
export class AuditRecordEntity {
  @PrimaryColumn({ name: 'sequence_id', type: 'bigint', transformer: numericId })
  sequenceId: number;

  @Column({ name: 'previous_hash', type: 'varchar' })
  previousHash: string;

  @Column({ name: 'record_hash', type: 'varchar' })
  recordHash: string;

  @Column({ type: 'varchar', nullable: true })
  tenant: string | null;

  @Column({ name: 'actor_kind', type: 'varchar' })
  actorKind: string;

  @Column({ name: 'actor_id', type: 'varchar' })
  actorId: string;

  @Column({ type: 'varchar' })
  action: string;

  @Column({ type: 'varchar', nullable: true })
  target: string | null;

  @Column({ type: 'varchar' })
  outcome: string;

  @Column({ name: 'occurred_at', type: 'bigint', transformer: epochMillis })
  occurredAt: Date;

  @Column({ name: 'correlation_id', type: 'varchar', nullable: true })
  correlationId: string | null;

  /** JSON text of the flat attribute map. */
  @Column({ type: 'text' })
  attributes: string;
}

/** The chain's head, one row (id 1): appends lock it, so writers take turns. */
@Entity('audit_chain_head')
export class AuditChainHeadEntity {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'last_sequence_id', type: 'bigint', transformer: numericId })
  lastSequenceId: number;

  @Column({ name: 'last_hash', type: 'varchar' })
  lastHash: string;
}

/** A signed tree head; one per tree size, whichever replica made it first. */
@Entity('audit_checkpoints')
export class AuditCheckpointEntity {
  @PrimaryColumn({ name: 'tree_size', type: 'bigint', transformer: numericId })
  treeSize: number;

  @Column({ name: 'root_hash', type: 'varchar' })
  rootHash: string;

  @Column({ type: 'text' })
  signed: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;
}
