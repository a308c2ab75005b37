import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, jsonStringArray } from '../transformers';

@Entity('refresh_tokens')
@Index('idx_refresh_tokens_grant_id', ['grantId'])
@Index('idx_refresh_tokens_client_id', ['clientId'])
@Index('idx_refresh_tokens_user_id', ['userId'])
@Index('idx_refresh_tokens_expires_at', ['expiresAt'])
@Index('idx_refresh_tokens_sid', ['sid'])
export class RefreshTokenEntity {
  @PrimaryColumn({ name: 'token_hash', type: 'varchar' })
  tokenHash: string;

  @Column({ name: 'grant_id', type: 'varchar' })
  grantId: string;

  @Column({ name: 'client_id', type: 'varchar' })
  clientId: string;

  @Column({ name: 'user_id', type: 'varchar' })
  userId: string;

  @Column({ type: 'text', transformer: jsonStringArray })
  scopes: string[];

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'family_created_at', type: 'bigint', transformer: epochMillis })
  familyCreatedAt: Date;

  @Column({ name: 'expires_at', type: 'bigint', transformer: epochMillis })
  expiresAt: Date;

  @Column({ name: 'rotated_at', type: 'bigint', nullable: true, transformer: epochMillis })
  rotatedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'bigint', nullable: true, transformer: epochMillis })
  revokedAt: Date | null;

  @Column({ type: 'varchar', nullable: true })
  sid: string | null;

  @Column({ name: 'auth_time', type: 'bigint', nullable: true, transformer: epochMillis })
  authTime: Date | null;

  /** The DPoP key a public client's refresh token is bound to (RFC 9449 section 5); null: none. */
  @Column({ name: 'dpop_jkt', type: 'varchar', nullable: true })
  dpopJkt: string | null;
}
