import type { SessionStamp } from '../sessions/session';

export interface AuthorizationCodeRecord {
  /** SHA-256 of the code; the code itself is never stored. */
  codeHash: string;
  grantId: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string;
  /**
   * `S256` for a code of the authorization endpoint. `login-code` for a one-time code of the
   * app login (`/api/v1/auth/oidc/login`), whose S256 challenge is the app's: the token endpoint
   * refuses every method but `S256`, so only the app login exchange accepts it.
   */
  codeChallengeMethod: 'S256' | 'login-code';
  createdAt: Date;
  expiresAt: Date;
  consumedAt: Date | null;
  /** OpenID Connect: the request's `nonce`, echoed in the ID token. */
  nonce?: string;
  /** The browser session the code was approved in (docs/openid-connect.md): its `sid` and login time. */
  session?: SessionStamp;
}

export interface AuthorizationCodeStore {
  insertAuthorizationCode(code: AuthorizationCodeRecord): Promise<void>;
  /**
   * Marks the code consumed if it was not, atomically. Returns the record as it was before
   * (consumedAt null means this call won), or null when there is no such code.
   */
  consumeAuthorizationCode(codeHash: string, now: Date): Promise<AuthorizationCodeRecord | null>;
  /** Deletes at most `limit` codes that expired at or before `before`; answers how many. */
  pruneAuthorizationCodes(before: Date, limit: number): Promise<number>;
}
