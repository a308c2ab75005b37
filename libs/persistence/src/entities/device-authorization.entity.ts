import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, jsonStringArray } from '../transformers';

/** RFC 8628 device authorization requests (libs/domain `DeviceAuthorizationStore`): hashes only. */
@Entity('device_authorizations')
@Index('uq_device_authorizations_user_code_hash', ['userCodeHash'], { unique: true })
@Index('idx_device_authorizations_expires_at', ['expiresAt'])
export class DeviceAuthorizationEntity {
  @PrimaryColumn({ name: 'device_code_hash', type: 'varchar' })
  deviceCodeHash: string;

  @Column({ name: 'user_code_hash', type: 'varchar' })
  userCodeHash: string;

  @Column({ name: 'grant_id', type: 'varchar' })
  grantId: string;

  @Column({ name: 'client_id', type: 'varchar' })
  clientId: string;

  @Column({ type: 'text', transformer: jsonStringArray })
  scopes: string[];

  @Column({ type: 'varchar' })
  status: string;

  @Column({ name: 'user_id', type: 'varchar', nullable: true })
  userId: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'bigint', transformer: epochMillis })
  expiresAt: Date;

  @Column({ name: 'interval_seconds', type: 'integer' })
  intervalSeconds: number;

  @Column({ name: 'last_polled_at', type: 'bigint', nullable: true, transformer: epochMillis })
  lastPolledAt: Date | null;

  @Column({ name: 'decided_at', type: 'bigint', nullable: true, transformer: epochMillis })
  decidedAt: Date | null;

  @Column({ name: 'consumed_at', type: 'bigint', nullable: true, transformer: epochMillis })
  consumedAt: Date | null;
}
