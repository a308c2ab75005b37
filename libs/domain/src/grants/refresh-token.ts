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
   * Deletes at most `limit` refresh tokens of families that ended at or before `before`: every
   * token of the grant has expired by then. A rotated token stays while its family lives, so
   * its reuse is still recognised (and revokes the family). Answers how many.
   */
  pruneRefreshTokens(before: Date, limit: number): Promise<number>;
}
