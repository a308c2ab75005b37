import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis } from '../transformers';

/** A tenant's SAML identity provider, one per tenant (libs/domain `SamlIdentityProviderStore`). */
@Entity('saml_identity_providers')
export class SamlIdentityProviderEntity {
  @PrimaryColumn({ type: 'varchar' })
  tenant: string;

  @Column({ name: 'entity_id', type: 'text' })
  entityId: string;

  @Column({ name: 'sso_url', type: 'text' })
  ssoUrl: string;

  /** The signing certificates (base64 DER), JSON. */
  @Column({ type: 'text' })
  certificates: string;

  /** The attribute mapping, JSON. */
  @Column({ name: 'attribute_mapping', type: 'text' })
  attributeMapping: string;

  /** Group -> role, JSON. */
  @Column({ name: 'role_mapping', type: 'text' })
  roleMapping: string;

  @Column({ name: 'want_response_signed', type: 'boolean' })
  wantResponseSigned: boolean;

  @Column({ name: 'name_id_format', type: 'varchar', nullable: true })
  nameIdFormat: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMillis })
  updatedAt: Date;
}

/**
 * The AuthnRequests sent (libs/domain `SamlRequestStore`): deleted when answered, so each is
 * answered once whichever replica receives the answer; pruned by the retention sweep past expiry.
 */
@Entity('saml_requests')
@Index('idx_saml_requests_expires_at', ['expiresAt'])
export class SamlRequestEntity {
  @PrimaryColumn({ type: 'varchar' })
  id: string;

  @Column({ type: 'varchar' })
  tenant: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'bigint', transformer: epochMillis })
  expiresAt: Date;
}
