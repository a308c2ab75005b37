import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, numericId } from '../transformers';

@Entity('token_events')
@Index('idx_token_events_client_id', ['clientId'])
export class TokenEventEntity {
  @PrimaryColumn({ type: 'integer', generated: 'increment', transformer: numericId })
  id: number;

  @Column({ type: 'varchar' })
  type: string;

  @Column({ name: 'client_id', type: 'varchar' })
  clientId: string;

  @Column({ type: 'varchar', nullable: true })
  subject: string | null;

  @Column({ type: 'varchar', nullable: true })
  jti: string | null;

  @Column({ name: 'grant_id', type: 'varchar', nullable: true })
  grantId: string | null;

  @Column({ name: 'occurred_at', type: 'bigint', transformer: epochMillis })
  occurredAt: Date;
}
