import type { SessionStamp } from '../sessions/session';

export interface RefreshTokenRecord {
  /** SHA-256 of the token; the token itself is never stored. */
  tokenHash: string;
  grantId: string;
  clientId: string;
  userId: string;
  scopes: string[];
  createdAt: Date;
  /** When the family's first token was issued: its absolute lifetime counts from here. */
  familyCreatedAt: Date;
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  /** The browser session the family began in, carried on by rotation; absent when none did. */
  session?: SessionStamp;
  /**
   * A public client's family bound to its DPoP key (RFC 9449 section 5): each refresh must carry
   * a proof of this key (its RFC 7638 thumbprint). Absent: not bound.
   */
  dpopJkt?: string;
}

/** A grant (refresh-token family) begun in a browser session, as the session's ending sees it. */
export interface SessionGrant {
  grantId: string;
  clientId: string;
  userId: string;
  scopes: string[];
}

export interface RefreshTokenStore {
  insertRefreshToken(token: RefreshTokenRecord): Promise<void>;
  findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | null>;
  /**
   * Marks the token rotated if it is neither rotated nor revoked, atomically: of two
   * concurrent calls exactly one gets true.
   */
  markRefreshTokenRotated(tokenHash: string, now: Date): Promise<boolean>;
  /** Revokes every refresh token of the grant; returns how many were still live. */
  revokeRefreshTokenFamily(grantId: string, now: Date): Promise<number>;
  revokeRefreshTokensOfClient(clientId: string, now: Date): Promise<number>;
  revokeRefreshTokensOfUser(userId: string, now: Date): Promise<number>;
  /**
   * The live grants (a token neither revoked nor expired at `now`) begun in the session `sid`,
   * one per grant, by grant id; found by the `sid` index.
   */
  listSessionGrants(sid: string, now: Date): Promise<SessionGrant[]>;
  /**
   * The user's live tokens of that client (neither rotated nor revoked, not expired at `now`):
   * the consent a `prompt=none` request may rely on (docs/openid-connect.md).
   */
  findLiveRefreshTokens(userId: string, clientId: string, now: Date): Promise<RefreshTokenRecord[]>;
  /**
   * Deletes at most `limit` refresh tokens of families that ended at or before `before`: every
   * token of the grant has expired by then. A rotated token stays while its family lives, so
   * its reuse is still recognised (and revokes the family). Answers how many.
   */
  pruneRefreshTokens(before: Date, limit: number): Promise<number>;
}
