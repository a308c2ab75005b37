import { createHash } from 'node:crypto';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, jsonStringArray } from '../transformers';

@Entity('applications')
@Index('uq_applications_resource_uri', ['resourceUri'], { unique: true })
export class ApplicationEntity {
  @PrimaryColumn({ name: 'client_id', type: 'varchar' })
  clientId: string;

  @Column({ type: 'varchar' })
  name: string;

  @Column({ name: 'app_type', type: 'varchar' })
  appType: string;

  @Column({ name: 'declared_scopes', type: 'text', transformer: jsonStringArray })
  declaredScopes: string[];

  @Column({ name: 'redirect_uris', type: 'text', transformer: jsonStringArray })
  redirectUris: string[];

  @Column({ name: 'secret_hash', type: 'varchar', nullable: true })
  secretHash: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'rotated_at', type: 'bigint', nullable: true, transformer: epochMillis })
  rotatedAt: Date | null;

  @Column({ type: 'varchar', nullable: true })
  tenant: string | null;

  /** Unique where set: a token's audience names one app (RFC 8707). */
  @Column({ name: 'resource_uri', type: 'varchar', nullable: true })
  resourceUri: string | null;

  @Column({ name: 'exchange_audiences', type: 'text', transformer: jsonStringArray })
  exchangeAudiences: string[];

  @Column({ name: 'may_impersonate', type: 'boolean', default: false })
  mayImpersonate: boolean;

  @Column({ name: 'post_logout_redirect_uris', type: 'text', transformer: jsonStringArray, default: '[]' })
  postLogoutRedirectUris: string[];

  @Column({ name: 'backchannel_logout_uri', type: 'text', nullable: true })
  backchannelLogoutUri: string | null;

  /** RFC 9449 section 5.2: every token request of the app must carry a DPoP proof. */
  @Column({ name: 'dpop_bound_access_tokens', type: 'boolean', default: false })
  dpopBoundAccessTokens: boolean;

  /** RFC 7591 `token_endpoint_auth_method`; null for apps registered before it (docs/workload-identity.md). */
  @Column({ name: 'token_endpoint_auth_method', type: 'varchar', nullable: true })
  tokenEndpointAuthMethod: string | null;

  /** private_key_jwt: the client's public JWK set, as JSON text (RFC 7591 `jwks`). */
  @Column({ type: 'text', nullable: true })
  jwks: string | null;

  /** private_key_jwt: where the client's public keys are fetched (RFC 7591 `jwks_uri`). */
  @Column({ name: 'jwks_uri', type: 'text', nullable: true })
  jwksUri: string | null;
}

/** The key of a redirect URI in `application_redirect_uris`: SHA-256, hex. */
export const redirectUriKey = (uri: string): string => createHash('sha256').update(uri, 'utf8').digest('hex');

/**
 * The index of registered redirect URIs: the app login finds the app of a `return_to` here.
 * Keyed by SHA-256 of the URI (`redirectUriKey`), so a long URI fits a B-tree entry on every database.
 */
@Entity('application_redirect_uris')
@Index('idx_application_redirect_uris_client_id', ['clientId'])
export class ApplicationRedirectUriEntity {
  @PrimaryColumn({ name: 'uri_hash', type: 'varchar' })
  uriHash: string;

  @PrimaryColumn({ name: 'client_id', type: 'varchar' })
  clientId: string;
}
