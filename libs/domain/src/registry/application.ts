import type { InsertResult } from '../storage';

/** A registered OAuth client (spec: "Application"). */
export const APP_TYPES = ['service', 'web', 'spa', 'cli'] as const;
export type AppType = (typeof APP_TYPES)[number];

/** RFC 8693's grant type. */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';

/** RFC 8628's grant type: a device polling for the user's approval. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export type GrantType =
  | 'client_credentials'
  | 'authorization_code'
  | 'refresh_token'
  | typeof TOKEN_EXCHANGE_GRANT
  | typeof DEVICE_CODE_GRANT;

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

/** Every field `PATCH /v1/oauth/apps/{id}` changes: the members a patch names, the others stay. */
export type ApplicationPatch = ApplicationExchangePatch & ApplicationLogoutPatch;

/**
 * The spec's app_type table: which grants each kind of app may use. Token exchange is for the
 * confidential kinds (a service calling another, a web console impersonating), and only where
 * the app's registry entry allows it (docs/tokens.md). The device flow (RFC 8628) is for command
 * lines on hosts without a browser.
 */
const GRANTS_BY_APP_TYPE: Record<AppType, readonly GrantType[]> = {
  service: ['client_credentials', TOKEN_EXCHANGE_GRANT],
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
