import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, numericId } from '../transformers';

/** The back-channel logout outbox (docs/openid-connect.md): one row per client to tell of an ended session. */
@Entity('backchannel_logouts')
@Index('idx_backchannel_logouts_due', ['state', 'nextAttemptAt'])
@Index('idx_backchannel_logouts_sid', ['sid'])
export class BackchannelLogoutEntity {
  @PrimaryColumn({ type: 'integer', generated: 'increment', transformer: numericId })
  id: number;

  @Column({ name: 'client_id', type: 'varchar' })
  clientId: string;

  @Column({ type: 'varchar' })
  subject: string;

  @Column({ type: 'varchar' })
  sid: string;

  @Column({ type: 'varchar', nullable: true })
  tenant: string | null;

  @Column({ type: 'varchar' })
  state: string;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'bigint', transformer: epochMillis })
  nextAttemptAt: Date;

  @Column({ name: 'lease_until', type: 'bigint', nullable: true, transformer: epochMillis })
  leaseUntil: Date | null;

  @Column({ name: 'last_status', type: 'integer', nullable: true })
  lastStatus: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;
}
