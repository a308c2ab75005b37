import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis } from '../transformers';

/** One version of a tenant's secret (docs/secrets.md): the value sealed, never in the clear. */
@Entity('secret_versions')
@Index('ix_secret_versions_kek', ['kekId'])
export class SecretVersionEntity {
  @PrimaryColumn({ type: 'varchar' })
  tenant: string;

  @PrimaryColumn({ type: 'varchar' })
  name: string;

  @PrimaryColumn({ type: 'integer' })
  version: number;

  /** base64url of nonce | AES-256-GCM ciphertext | tag; null once destroyed. */
  @Column({ type: 'text', nullable: true })
  ciphertext: string | null;

  /** The data key wrapped (RFC 3394) by the key-encryption key `kek_id`; null once destroyed. */
  @Column({ name: 'wrapped_key', type: 'varchar', nullable: true })
  wrappedKey: string | null;

  @Column({ name: 'kek_id', type: 'varchar', nullable: true })
  kekId: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'deleted_at', type: 'bigint', nullable: true, transformer: epochMillis })
  deletedAt: Date | null;

  @Column({ type: 'boolean', default: false })
  destroyed: boolean;
}
