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
