/** Shapes as they travel on the wire: snake_case, times as ISO 8601 UTC strings. */

export type AppType = 'service' | 'web' | 'spa' | 'cli';

/** RFC 6749 section 5.1. */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  /** Seconds; 3600 for the platform's tokens. */
  expires_in?: number;
  scope?: string;
  /** authorization_code and refresh_token grants only. */
  refresh_token?: string;
}

/** RFC 7662. An expired, revoked or unknown token is exactly `{ active: false }`. */
export type IntrospectionResponse =
  | { active: false }
  | {
      active: true;
      client_id: string;
      scope: string;
      sub: string;
      iat: number;
      exp: number;
      iss?: string;
      aud?: string;
      jti?: string;
      token_type?: string;
      [claim: string]: unknown;
    };

export interface RegisterAppRequest {
  client_id: string;
  name: string;
  declared_scopes: string[];
  app_type: AppType;
  /** Required for `web`, `spa` and `cli` apps. */
  redirect_uris?: string[];
}

/** An application as the registry shows it: never a secret. */
export interface Application {
  client_id: string;
  name: string;
  declared_scopes: string[];
  app_type: AppType;
  redirect_uris: string[];
  created_at: string;
  rotated_at: string | null;
}

/** The registration answer: the secret is shown this once (never for `spa` apps). */
export interface RegisteredApplication extends Application {
  client_secret?: string;
}

/** The rotation answer: the new secret, shown this once; the old one already fails. */
export interface RotatedSecret {
  client_id: string;
  client_secret: string;
  rotated_at: string;
}

export interface ScopeDefinition {
  name: string;
  description: string;
  created_at: string | null;
  /** In listings: true for the platform's own scopes. */
  standard?: boolean;
}

/** The caller as the platform sees its token (`GET /v1/me`). */
export interface Me {
  sub: string;
  client_id: string;
  scope: string;
  tenant?: string;
  roles?: string[];
  exp: number;
}
