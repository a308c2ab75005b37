import type { InsertResult } from '../storage';

/** A registered OAuth client (spec: "Application"). */
export const APP_TYPES = ['service', 'web', 'spa', 'cli'] as const;
export type AppType = (typeof APP_TYPES)[number];

export type GrantType = 'client_credentials' | 'authorization_code' | 'refresh_token';

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
}

/** The spec's app_type table: which grants each kind of app may use. */
const GRANTS_BY_APP_TYPE: Record<AppType, readonly GrantType[]> = {
  service: ['client_credentials'],
  web: ['authorization_code', 'refresh_token'],
  spa: ['authorization_code', 'refresh_token'],
  cli: ['authorization_code', 'refresh_token'],
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
  /** false when there was no such application. */
  updateApplicationSecret(clientId: string, secretHash: string, rotatedAt: Date): Promise<boolean>;
}
