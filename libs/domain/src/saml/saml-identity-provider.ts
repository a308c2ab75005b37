import type { Role } from '../sessions/identity-claims';

/**
 * SAML 2.0 sign-in per tenant (docs/saml.md): the identity provider a tenant registered from its
 * metadata, the requests we sent it, and the names of the tenant's service provider.
 */

/** How far our clock and the identity provider's may disagree, each way, at every time check. */
export const SAML_CLOCK_SKEW_SECONDS = 60;

/** How long an AuthnRequest we sent may be answered (the browser's round trip through the IdP). */
export const SAML_REQUEST_TTL_SECONDS = 600;

/** Largest SAML document taken (decoded XML, bytes); anything larger is refused before parsing. */
export const SAML_MAX_DOCUMENT_BYTES = 256 * 1024;

/** Largest IdP metadata document taken at registration (bytes). */
export const SAML_MAX_METADATA_BYTES = 512 * 1024;

/** Bounds of a registration. */
export const SAML_LIMITS = {
  entityIdLength: 1024,
  urlLength: 2048,
  certificates: 10,
  attributeNames: 10,
  attributeNameLength: 256,
  roleMappings: 100,
  groupLength: 256,
} as const;

/** Where the assertion's attributes are read from, each a list of attribute `Name`s tried in order. */
export interface SamlAttributeMapping {
  email: string[];
  name: string[];
  groups: string[];
}

/** The attribute names of the common identity providers (ADFS/Entra ID claim URIs, OIDs, plain names). */
export const DEFAULT_SAML_ATTRIBUTE_MAPPING: SamlAttributeMapping = {
  email: [
    'email',
    'mail',
    'urn:oid:0.9.2342.19200300.100.1.3',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  ],
  name: [
    'displayName',
    'name',
    'urn:oid:2.16.840.1.113730.3.1.241',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
  ],
  groups: [
    'groups',
    'memberOf',
    'urn:oid:1.3.6.1.4.1.5923.1.5.1.1',
    'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
  ],
};

/** The roles a tenant's identity provider may give: never `global_admin`, which reaches every tenant. */
export const SAML_MAPPABLE_ROLES: readonly Role[] = ['tenant_admin', 'user', 'viewer'];

/** A tenant's SAML identity provider, as registered from its metadata. */
export interface SamlIdentityProvider {
  tenant: string;
  /** The IdP's `entityID`: the `Issuer` of every assertion it signs. */
  entityId: string;
  /** Its SingleSignOnService for the HTTP-Redirect binding. */
  ssoUrl: string;
  /** Its signing certificates (base64 DER): several during a key rollover, any one verifies. */
  certificates: string[];
  attributeMapping: SamlAttributeMapping;
  /** Group value -> role; groups mapped to nothing give nothing. */
  roleMapping: Record<string, Role>;
  /** Require the Response to be signed too (the assertion always is). */
  wantResponseSigned: boolean;
  /** The NameID format asked for in the AuthnRequest's NameIDPolicy; null: the IdP's choice. */
  nameIdFormat: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SamlIdentityProviderStore {
  /** Inserts or replaces the tenant's registration (one per tenant). */
  upsertSamlIdentityProvider(idp: SamlIdentityProvider): Promise<'created' | 'updated'>;
  findSamlIdentityProvider(tenant: string): Promise<SamlIdentityProvider | null>;
  deleteSamlIdentityProvider(tenant: string): Promise<boolean>;
}

/** An AuthnRequest we sent: its `ID` comes back as `InResponseTo`, once. */
export interface SamlRequestRecord {
  id: string;
  tenant: string;
  createdAt: Date;
  expiresAt: Date;
}

/** The requests we sent (`saml_requests`), shared by every control-plane replica. */
export interface SamlRequestStore {
  insertSamlRequest(request: SamlRequestRecord): Promise<void>;
  /**
   * Deletes the request if it is the tenant's and has not expired at `now`: true exactly once
   * (the database decides between replicas racing for it), false for unknown, used or expired.
   */
  consumeSamlRequest(id: string, tenant: string, now: Date): Promise<boolean>;
  /** Deletes up to `limit` requests that expired before `before`; answers how many went. */
  pruneSamlRequests(before: Date, limit: number): Promise<number>;
}

/** The tenant's service provider at the platform: the names its IdP is configured with. */
export interface SamlServiceProvider {
  /** Our `entityID` for the tenant, also the audience of its assertions (the metadata's URL). */
  entityId: string;
  /** The AssertionConsumerService (HTTP-POST): the `Recipient` and `Destination` expected. */
  acsUrl: string;
  /** Where a browser starts a sign-in (SP-initiated). */
  loginUrl: string;
}

export function samlServiceProvider(issuer: string, tenant: string): SamlServiceProvider {
  const base = `${issuer}/saml/${encodeURIComponent(tenant)}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, loginUrl: `${base}/login` };
}

/**
 * The `issuer` a SAML user is stored under: the IdP's entity id within the tenant, so a tenant
 * registering another tenant's IdP entity id never reaches that tenant's users.
 */
export function samlUserIssuer(tenant: string, entityId: string): string {
  return `saml:${tenant}:${entityId}`;
}
