import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, jsonStringArray } from '../transformers';

@Entity('authorization_codes')
@Index('idx_authorization_codes_expires_at', ['expiresAt'])
export class AuthorizationCodeEntity {
  @PrimaryColumn({ name: 'code_hash', type: 'varchar' })
  codeHash: string;

  @Column({ name: 'grant_id', type: 'varchar' })
  grantId: string;

  @Column({ name: 'client_id', type: 'varchar' })
  clientId: string;

  @Column({ name: 'user_id', type: 'varchar' })
  userId: string;

  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri: string;

  @Column({ type: 'text', transformer: jsonStringArray })
  scopes: string[];

  @Column({ name: 'code_challenge', type: 'varchar' })
  codeChallenge: string;

  @Column({ name: 'code_challenge_method', type: 'varchar' })
  codeChallengeMethod: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'bigint', transformer: epochMillis })
  expiresAt: Date;

  @Column({ name: 'consumed_at', type: 'bigint', nullable: true, transformer: epochMillis })
  consumedAt: Date | null;

  @Column({ type: 'text', nullable: true })
  nonce: string | null;

  @Column({ type: 'varchar', nullable: true })
  sid: string | null;

  @Column({ name: 'auth_time', type: 'bigint', nullable: true, transformer: epochMillis })
  authTime: Date | null;
}
