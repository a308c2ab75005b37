/**
 * Webhooks: HTTP endpoints that receive the audit log's records as Standard Webhooks messages
 * (docs/webhooks.md). Token events are audited one for one, so subscribing to `token.*` is
 * subscribing to them.
 */

export interface WebhookEndpoint {
  /** `wh_` and 22 random base64url characters. */
  id: string;
  url: string;
  description: string;
  /** Actions it receives: exact (`token.revoked`), a prefix (`token.*`), or everything (`*`). */
  eventTypes: string[];
  /** Records of this tenant only; null: every record, platform-wide ones included. */
  tenant: string | null;
  /**
   * Set while disabled: nothing is delivered to it and no record is queued for it; enabling it
   * again moves `startAfterSequence` to the chain's head then.
   */
  disabledAt: Date | null;
  /**
   * The signing secret (`whsec_` and the base64 key) as stored: sealed under the secrets' KEK
   * (sealed-webhook-secret.ts, docs/secrets.md), or in the clear as earlier releases wrote
   * it, until the next start seals it. Returned once, in the clear, when it is created.
   */
  storedSecret: string;
  /** The secret before the last rotation, as stored, which also signs until `previousSecretExpiresAt`. */
  previousStoredSecret: string | null;
  previousSecretExpiresAt: Date | null;
  /** It receives the records after this sequence id: the chain's head when it was registered. */
  startAfterSequence: number;
  createdAt: Date;
  updatedAt: Date;
}

export type StoredWebhookSecrets = Pick<WebhookEndpoint, 'storedSecret' | 'previousStoredSecret'>;

/** An endpoint as registration and rotation answer it: with its new secret, the one time it is shown. */
export type RevealedWebhookEndpoint = WebhookEndpoint & { secret: string };

export type WebhookDeliveryState = 'pending' | 'succeeded' | 'dead';
export const WEBHOOK_DELIVERY_STATES: readonly WebhookDeliveryState[] = ['pending', 'succeeded', 'dead'];

/** One audit record on its way to one endpoint. */
export interface WebhookDelivery {
  id: number;
  endpointId: string;
  /** The audit record it carries. */
  sequenceId: number;
  eventType: string;
  state: WebhookDeliveryState;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due (pending), or when the last one was made. */
  nextAttemptAt: Date;
  /** A worker holds it until then; after a crash it is due again at this time. */
  leaseUntil: Date | null;
  /** Set by a replay: the delivery it repeats. */
  replayOf: number | null;
  createdAt: Date;
}

export type WebhookDeliveryInput = Pick<
  WebhookDelivery,
  'endpointId' | 'sequenceId' | 'eventType' | 'replayOf'
> & {
  nextAttemptAt: Date;
};

/** What one attempt did, for the delivery log. */
export interface WebhookAttempt {
  deliveryId: number;
  /** 1 for the first attempt. */
  attempt: number;
  at: Date;
  durationMs: number;
  /** The receiver's HTTP status; null when it gave none (refused, unreachable, timed out). */
  status: number | null;
  /** Why it failed without an answer. Never carries a secret. */
  error: string | null;
  /** The start of the receiver's answer, at most WEBHOOK_RESPONSE_EXCERPT_BYTES. */
  responseExcerpt: string | null;
}

/** How an attempt leaves its delivery. */
export interface WebhookAttemptOutcome {
  state: WebhookDeliveryState;
  nextAttemptAt: Date;
}

/** An attempt made, to be logged with what it did to its delivery. */
export interface WebhookAttemptResult {
  attempt: WebhookAttempt;
  outcome: WebhookAttemptOutcome;
}

export interface WebhookDeliveryQuery {
  endpointId: string;
  state?: WebhookDeliveryState;
  /** Exclusive: deliveries with a greater id (the cursor). */
  after?: number;
  limit: number;
}

export interface WebhookClaim {
  now: Date;
  leaseUntil: Date;
  /** At most this many deliveries in all. */
  limit: number;
  /** At most this many in flight per endpoint, counting those leased already. */
  perEndpoint: number;
}

/** What a claim leased, with the endpoints of those deliveries as the claim read them. */
export interface ClaimedWebhookDeliveries {
  deliveries: WebhookDelivery[];
  endpoints: WebhookEndpoint[];
}

export interface WebhookStore {
  insertWebhookEndpoint(endpoint: WebhookEndpoint): Promise<void>;
  findWebhookEndpoint(id: string): Promise<WebhookEndpoint | null>;
  /** Ordered by creation, then id. */
  listWebhookEndpoints(): Promise<WebhookEndpoint[]>;
  /** Writes every field of the endpoint; false when there is no such endpoint. */
  updateWebhookEndpoint(endpoint: WebhookEndpoint): Promise<boolean>;
  /**
   * Stores its secrets in another form (sealed, rewrapped) only while they are still `expected`:
   * false when the endpoint is gone or a rotation changed them meanwhile.
   */
  replaceWebhookSecrets(
    id: string,
    expected: StoredWebhookSecrets,
    next: StoredWebhookSecrets,
  ): Promise<boolean>;
  /** Deletes the endpoint with its deliveries and their attempts; false when there was none. */
  deleteWebhookEndpoint(id: string): Promise<boolean>;
  /**
   * The sequence id the dispatcher has fanned out through. Inside a transaction it also locks
   * the cursor until commit, so replicas take turns dispatching.
   */
  lockWebhookDispatchCursor(): Promise<number>;
  setWebhookDispatchCursor(sequenceId: number): Promise<void>;
  insertWebhookDeliveries(deliveries: WebhookDeliveryInput[], now: Date): Promise<WebhookDelivery[]>;
  /**
   * Records finished attempts as `recordWebhookAttempts` does (none: a claim alone), then leases
   * due, pending deliveries of enabled endpoints, oldest due first, up to each endpoint's lane:
   * in one transaction, so the lanes the attempts held are free for the claim. Of two workers
   * asking at once, each delivery goes to one. A worker's steady state is one of these per batch
   * of finished attempts.
   */
  recordAndClaimWebhookDeliveries(
    finished: WebhookAttemptResult[],
    claim: WebhookClaim,
  ): Promise<ClaimedWebhookDeliveries>;
  /**
   * Logs the attempts and moves each delivery on (attempts + 1, new state, lease released), all
   * in one transaction: a busy sender records a batch of attempts at once.
   */
  recordWebhookAttempts(results: WebhookAttemptResult[]): Promise<void>;
  findWebhookDelivery(id: number): Promise<WebhookDelivery | null>;
  /** Ascending by id. */
  listWebhookDeliveries(query: WebhookDeliveryQuery): Promise<WebhookDelivery[]>;
  /** Every attempt of these deliveries, by delivery then attempt. */
  listWebhookAttempts(deliveryIds: number[]): Promise<WebhookAttempt[]>;
}

/** `*`, `token.*`, `token.revoked`: lower-case dotted names, a trailing `.*` for a prefix. */
export const EVENT_TYPE_PATTERN = /^(\*|[a-z0-9_]+(\.[a-z0-9_]+)*(\.\*)?)$/;

/** Whether an endpoint subscribed to these patterns receives records of this action. */
export function eventTypeMatches(patterns: readonly string[], action: string): boolean {
  return patterns.some(
    (pattern) =>
      pattern === '*' ||
      pattern === action ||
      (pattern.endsWith('.*') && action.startsWith(pattern.slice(0, -1))),
  );
}

/** Whether a record (its tenant and action) goes to this endpoint. */
export function endpointReceives(
  endpoint: Pick<WebhookEndpoint, 'eventTypes' | 'tenant' | 'startAfterSequence' | 'disabledAt'>,
  record: { sequenceId: number; tenant: string | null; action: string },
): boolean {
  return (
    endpoint.disabledAt === null &&
    record.sequenceId > endpoint.startAfterSequence &&
    (endpoint.tenant === null || endpoint.tenant === record.tenant) &&
    eventTypeMatches(endpoint.eventTypes, record.action)
  );
}
