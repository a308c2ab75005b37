import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, jsonObject, numericId } from '../transformers';

/** The definitions sidecar services run on (rate limit rules), one row per (kind, tenant, name). */
@Entity('service_definitions')
@Index('uq_service_definitions_seq', ['seq'], { unique: true })
export class ServiceDefinitionEntity {
  @PrimaryColumn({ type: 'varchar' })
  kind: string;

  @PrimaryColumn({ type: 'varchar' })
  tenant: string;

  @PrimaryColumn({ type: 'varchar' })
  name: string;

  /** JSON; null once deleted (a tombstone the feed still carries). */
  @Column({ type: 'text', nullable: true, transformer: jsonObject })
  document: Record<string, unknown> | null;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'bigint', transformer: numericId })
  seq: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMillis })
  updatedAt: Date;
}

/** One row: the last seq handed out. Updating it locks it, so seqs follow commit order. */
@Entity('service_definition_sequence')
export class ServiceDefinitionSequenceEntity {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'last_seq', type: 'bigint', transformer: numericId })
  lastSeq: number;
}
