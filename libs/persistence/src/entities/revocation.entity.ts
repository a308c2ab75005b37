import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, numericId } from '../transformers';

@Entity('revocations')
@Index('idx_revocations_kind_value', ['kind', 'value'])
@Index('idx_revocations_expires_at', ['expiresAt'])
export class RevocationEntity {
  /** AUTOINCREMENT on SQLite so a pruned top seq is never reused: sidecars follow seq. */
  @PrimaryColumn({ type: 'integer', generated: 'increment', transformer: numericId })
  seq: number;

  @Column({ type: 'varchar' })
  kind: string;

  @Column({ type: 'varchar' })
  value: string;

  @Column({ name: 'expires_at', type: 'bigint', transformer: epochMillis })
  expiresAt: Date;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;
}
