import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis } from '../transformers';

/**
 * Signed assertions used once (libs/domain `AssertionReplayStore`): a private_key_jwt `jti`, a
 * workload token, by the SHA-256 of what identifies it; kept until it expires, then pruned by
 * the retention sweep by `expires_at`.
 */
@Entity('assertion_uses')
@Index('idx_assertion_uses_expires_at', ['expiresAt'])
export class AssertionUseEntity {
  @PrimaryColumn({ name: 'assertion_key', type: 'varchar' })
  assertionKey: string;

  @Column({ name: 'expires_at', type: 'bigint', transformer: epochMillis })
  expiresAt: Date;
}

/** A tenant's trusted workload issuers and their rules (libs/domain `FederatedIssuerStore`). */
@Entity('federated_issuers')
@Index('uq_federated_issuers_tenant_issuer', ['tenant', 'issuer'], { unique: true })
@Index('idx_federated_issuers_issuer', ['issuer'])
export class FederatedIssuerEntity {
  @PrimaryColumn({ type: 'varchar' })
  id: string;

  @Column({ type: 'varchar' })
  tenant: string;

  @Column({ type: 'varchar' })
  issuer: string;

  @Column({ name: 'jwks_uri', type: 'text', nullable: true })
  jwksUri: string | null;

  /** The rules, JSON. */
  @Column({ type: 'text' })
  rules: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMillis })
  updatedAt: Date;
}
