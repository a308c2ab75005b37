import { createHash } from 'node:crypto';

/** A browser session at the platform, opened after the identity provider vouched for the user. */
export interface SessionRecord {
  /** SHA-256 of the session value; the value itself lives only in the browser's cookie. */
  sessionHash: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  /** Set at logout; an ended session never resolves again. */
  endedAt: Date | null;
}

export interface SessionStore {
  insertSession(session: SessionRecord): Promise<void>;
  findSession(sessionHash: string): Promise<SessionRecord | null>;
  /** Ends the session if it has not ended (the first end time stays); false when it was not live. */
  endSession(sessionHash: string, now: Date): Promise<boolean>;
  /** Ends every live session of the user; answers how many were live. */
  endSessionsOfUser(userId: string, now: Date): Promise<number>;
  /** Deletes at most `limit` sessions that expired at or before `before`; answers how many. */
  pruneSessions(before: Date, limit: number): Promise<number>;
}

/**
 * What a code, a refresh-token family and an ID token remember of the session they began in:
 * OpenID Connect's `sid` and `auth_time` (docs/openid-connect.md).
 */
export interface SessionStamp {
  sid: string;
  /** When the user signed in at the identity provider and the session opened. */
  authTime: Date;
}

/**
 * The session's `sid`: derived from the stored hash, so it names the session to clients (ID
 * tokens, logout tokens) without revealing anything that could be turned into the cookie.
 */
export function sessionIdOf(sessionHash: string): string {
  return createHash('sha256').update(`sid:${sessionHash}`).digest('base64url').slice(0, 32);
}

export function sessionStampOf(session: Pick<SessionRecord, 'sessionHash' | 'createdAt'>): SessionStamp {
  return { sid: sessionIdOf(session.sessionHash), authTime: session.createdAt };
}
