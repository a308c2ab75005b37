import type { WebhookDeliveryState } from '../webhooks/webhook-endpoint';

/**
 * Back-channel logout (OpenID Connect Back-Channel Logout 1.0): when a browser session ends,
 * every client holding a grant of it that registered a `backchannel_logout_uri` is sent a
 * logout token. Each is a row of a durable outbox, written in the transaction that ends the
 * session, then delivered, leased and retried as webhooks are (docs/webhooks.md).
 */
export type BackchannelLogoutState = WebhookDeliveryState;

export interface BackchannelLogout {
  id: number;
  clientId: string;
  /** The user (`sub` of the ID tokens and of the logout token). */
  subject: string;
  /** The ended session (`sid`). */
  sid: string;
  /** The user's tenant, for the audit records of the delivery. */
  tenant: string | null;
  state: BackchannelLogoutState;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due (pending), or when the last one was made. */
  nextAttemptAt: Date;
  /** A worker holds it until then; after a crash it is due again at this time. */
  leaseUntil: Date | null;
  /** What the last attempt got: the receiver's status, or why there was none. */
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
}

export type BackchannelLogoutInput = Pick<BackchannelLogout, 'clientId' | 'subject' | 'sid' | 'tenant'>;

export interface BackchannelLogoutClaim {
  now: Date;
  leaseUntil: Date;
  limit: number;
}

/** One attempt made, with what it leaves the logout in. */
export interface BackchannelLogoutAttemptResult {
  id: number;
  status: number | null;
  error: string | null;
  state: BackchannelLogoutState;
  nextAttemptAt: Date;
}

export interface BackchannelLogoutStore {
  insertBackchannelLogouts(logouts: BackchannelLogoutInput[], now: Date): Promise<void>;
  /**
   * Leases due, pending logouts, oldest due first, with a conditional UPDATE: of two workers
   * asking at once, each logout goes to one.
   */
  claimBackchannelLogouts(claim: BackchannelLogoutClaim): Promise<BackchannelLogout[]>;
  /** Moves each logout on (attempts + 1, state, next attempt, last outcome, lease released). */
  recordBackchannelLogoutAttempts(results: BackchannelLogoutAttemptResult[]): Promise<void>;
  /** The logouts of a session, by id. */
  listBackchannelLogoutsOfSession(sid: string): Promise<BackchannelLogout[]>;
  /** Deletes at most `limit` finished (succeeded or dead) logouts last tried at or before `before`. */
  pruneBackchannelLogouts(before: Date, limit: number): Promise<number>;
}
