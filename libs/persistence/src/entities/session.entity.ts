import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis } from '../transformers';

@Entity('sessions')
@Index('idx_sessions_user_id', ['userId'])
@Index('idx_sessions_expires_at', ['expiresAt'])
export class SessionEntity {
  @PrimaryColumn({ name: 'session_hash', type: 'varchar' })
  sessionHash: string;

  @Column({ name: 'user_id', type: 'varchar' })
  userId: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'bigint', transformer: epochMillis })
  expiresAt: Date;

  @Column({ name: 'ended_at', type: 'bigint', nullable: true, transformer: epochMillis })
  endedAt: Date | null;
}
