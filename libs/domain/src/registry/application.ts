import type { JSONWebKeySet } from 'jose';
import type { InsertResult } from '../storage';

/** A registered OAuth client (spec: "Application"). */
export const APP_TYPES = ['service', 'web', 'spa', 'cli'] as const;
export type AppType = (typeof APP_TYPES)[number];

/** RFC 8693's grant type. */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';

/** RFC 8628's grant type: a device polling for the user's approval. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** RFC 7523 section 2.1's grant type: a workload's own token as `assertion` (docs/workload-identity.md). */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** RFC 7522's grant type: an assertion of a tenant's SAML IdP traded for a user token (docs/saml.md). */
export const SAML2_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:saml2-bearer';

/** RFC 7591 `token_endpoint_auth_method`: how a client authenticates (docs/workload-identity.md). */
export const TOKEN_ENDPOINT_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

export type GrantType =
  | 'client_credentials'
  | 'authorization_code'
  | 'refresh_token'
  | typeof TOKEN_EXCHANGE_GRANT
  | typeof DEVICE_CODE_GRANT
  | typeof JWT_BEARER_GRANT
  | typeof SAML2_BEARER_GRANT;

export interface Application {
  clientId: string;
  name: string;
  appType: AppType;
  declaredScopes: string[];
  redirectUris: string[];
  /** argon2id hash; null for apps without a secret (spa). */
  secretHash: string | null;
  createdAt: Date;
  rotatedAt: Date | null;
  /**
   * The tenant a service app acts in where an API is per tenant (SCIM provisioning: its
   * provisioning connection); null: none, the platform-wide default applies.
   */
  tenant: string | null;
  /** The audience URI of the app as a resource server (RFC 8707); null: it is not one. */
  resourceUri: string | null;
  /** The resource URIs this client may ask a token exchange for (RFC 8693); empty: it may not exchange. */
  exchangeAudiences: string[];
  /** Whether this client may ask for impersonation tokens (its users still need `users.impersonate`). */
  mayImpersonate: boolean;
  /**
   * Where RP-initiated logout may send the browser back (OpenID Connect RP-Initiated Logout 1.0,
   * `post_logout_redirect_uris`), under the redirect URI rules; absent or empty: none.
   */
  postLogoutRedirectUris?: string[];
  /**
   * Where logout tokens are posted when a session the app holds a grant of ends (OpenID Connect
   * Back-Channel Logout 1.0, `backchannel_logout_uri`), under the webhook URL rules; absent or null: none.
   */
  backchannelLogoutUri?: string | null;
  /**
   * Every token request must carry a DPoP proof and every access token is bound to its key
   * (RFC 9449 section 5.2, `dpop_bound_access_tokens`); absent or false: a proof is optional.
   */
  dpopBoundAccessTokens?: boolean;
  /**
   * RFC 7591 `token_endpoint_auth_method`; absent (apps registered before it): a secret's method
   * for an app holding one, else `none` (`clientAuthMethodOf`). A `private_key_jwt` app holds no
   * secret: it signs assertions with a key of `jwks` or `jwksUri`.
   */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** private_key_jwt: the client's public keys, inline (RFC 7591 `jwks`); absent or null: none. */
  jwks?: JSONWebKeySet | null;
  /** private_key_jwt: where the client publishes its public keys (RFC 7591 `jwks_uri`); absent or null: none. */
  jwksUri?: string | null;
}

/** How an app authenticates: as registered, or for apps registered before the field, by whether it holds a secret. */
export function clientAuthMethodOf(app: Application): TokenEndpointAuthMethod {
  return app.tokenEndpointAuthMethod ?? (app.secretHash === null ? 'none' : 'client_secret_basic');
}

/** What an administrator may change of an app's part in token exchange (docs/tokens.md). */
export interface ApplicationExchangePatch {
  resourceUri?: string | null;
  exchangeAudiences?: string[];
  mayImpersonate?: boolean;
}

/** What an administrator may change of an app's part in OpenID Connect logout (docs/openid-connect.md). */
export interface ApplicationLogoutPatch {
  postLogoutRedirectUris?: string[];
  backchannelLogoutUri?: string | null;
}

/** What an administrator may change of an app's use of DPoP (docs/tokens.md, "DPoP"). */
export interface ApplicationDpopPatch {
  dpopBoundAccessTokens?: boolean;
}

/**
 * A private_key_jwt app's keys (docs/workload-identity.md): one of the two replaces the other
 * (the one not named becomes null).
 */
export interface ApplicationKeysPatch {
  jwks?: JSONWebKeySet | null;
  jwksUri?: string | null;
}

/** Every field `PATCH /v1/oauth/apps/{id}` changes: the members a patch names, the others stay. */
export type ApplicationPatch = ApplicationExchangePatch &
  ApplicationLogoutPatch &
  ApplicationDpopPatch &
  ApplicationKeysPatch;

/**
 * The spec's app_type table: which grants each kind of app may use. Token exchange is for the
 * confidential kinds (a service calling another, a web console impersonating), and only where
 * the app's registry entry allows it (docs/tokens.md). The device flow (RFC 8628) is for command
 * lines on hosts without a browser.
 */
const GRANTS_BY_APP_TYPE: Record<AppType, readonly GrantType[]> = {
  service: ['client_credentials', TOKEN_EXCHANGE_GRANT, JWT_BEARER_GRANT, SAML2_BEARER_GRANT],
  web: ['authorization_code', 'refresh_token', TOKEN_EXCHANGE_GRANT],
  spa: ['authorization_code', 'refresh_token'],
  cli: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT],
};

export function appMayUseGrant(appType: AppType, grant: GrantType): boolean {
  return GRANTS_BY_APP_TYPE[appType].includes(grant);
}

/** spa apps run in a browser and cannot keep a secret; every other type gets one. */
export function appHasSecret(appType: AppType): boolean {
  return appType !== 'spa';
}

/** Apps that take part in the authorization code flow need redirect URIs. */
export function appNeedsRedirectUris(appType: AppType): boolean {
  return appType !== 'service';
}

/** Tenant names as tokens and routes carry them. */
export const TENANT_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export const CLIENT_ID_PATTERN = /^[A-Za-z0-9._-]{3,64}$/;

export interface ApplicationPage {
  items: Application[];
  /** client_id to pass as `after` for the next page, when there is one. */
  nextAfter: string | null;
}

export interface ApplicationStore {
  findApplication(clientId: string): Promise<Application | null>;
  insertApplication(app: Application): Promise<InsertResult>;
  /** Ordered by client_id; `after` is exclusive. */
  listApplications(page: { after?: string; limit: number }): Promise<ApplicationPage>;
  /** Up to `limit` apps that registered exactly `redirectUri`, by client_id, found by an index. */
  findApplicationsByRedirectUri(redirectUri: string, limit: number): Promise<Application[]>;
  /** false when there was no such application. */
  deleteApplication(clientId: string): Promise<boolean>;
  /** The app registered as the resource `uri`, if any (resource URIs are unique). */
  findApplicationByResource(uri: string): Promise<Application | null>;
  /** 'conflict' when another app already is the resource named. */
  updateApplicationExchange(
    clientId: string,
    patch: ApplicationPatch,
  ): Promise<'updated' | 'not_found' | 'conflict'>;
  /** false when there was no such application. */
  updateApplicationSecret(clientId: string, secretHash: string, rotatedAt: Date): Promise<boolean>;
}
