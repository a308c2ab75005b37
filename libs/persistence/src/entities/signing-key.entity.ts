import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMillis } from '../transformers';

@Entity('signing_keys')
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'varchar' })
  kid: string;

  @Column({ type: 'varchar' })
  alg: string;

  @Column({ name: 'private_jwk', type: 'text' })
  privateJwk: string;

  @Column({ name: 'public_jwk', type: 'text' })
  publicJwk: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'retired_at', type: 'bigint', nullable: true, transformer: epochMillis })
  retiredAt: Date | null;
}
