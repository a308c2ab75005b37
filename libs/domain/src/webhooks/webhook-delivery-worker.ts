import type { Clock } from '../clock';
import type { AuditRecord, AuditStore } from '../audit/audit-record';
import type {
  WebhookAttemptOutcome,
  WebhookAttemptResult,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookStore,
} from './webhook-endpoint';
import type { Envelope } from '../secrets/envelope';
import { openWebhookSecret } from './sealed-webhook-secret';
import { webhookRetryDelay } from './webhook-retry';
import { webhookHeaders } from './webhook-signature';

/** What the receiver did with one POST. */
export interface WebhookResponse {
  /** null when there was no HTTP answer: refused address, unreachable, timed out. */
  status: number | null;
  error: string | null;
  /** The start of the answer's body, bounded by the sender. */
  excerpt: string | null;
}

/** Sends one message over HTTP (the control plane's sender bounds time, size and addresses). */
export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse>;
}

export interface WebhookWorkerOptions {
  /** Deliveries one endpoint may have in flight at once, across every worker. */
  perEndpoint: number;
  /** How long a claimed delivery stays leased: longer than the sender's timeout. */
  leaseMs: number;
  random?: () => number;
}

/** A leased delivery, with its endpoint (null: deleted meanwhile) and its record (null: missing). */
export interface ClaimedWebhookDelivery extends WebhookDelivery {
  endpoint: WebhookEndpoint | null;
  record: AuditRecord | null;
}

/** Opened secrets kept at most; the oldest goes first. */
const MAX_OPENED_SECRETS = 10_000;

/** The message id receivers deduplicate on: one per audit record. */
export const webhookMessageId = (sequenceId: number): string => `msg_${sequenceId}`;

/**
 * Attempts due deliveries: claims them (a lease, so no other worker sends them meanwhile),
 * signs each with the endpoint's secrets and posts it, then logs the attempts and schedules
 * each delivery's next one (webhook-retry.ts) or dead-letters it after the last.
 */
export class WebhookDeliveryWorker {
  /**
   * Secrets already opened, by endpoint and sealed text: one record goes to every endpoint that
   * subscribes, and each attempt would otherwise unseal its endpoint's secret again. Keyed by the
   * endpoint too, so a sealed secret copied onto another endpoint's row still does not open there.
   */
  private readonly openedSecrets = new Map<string, string>();
  /** Each record's message body, made once however many endpoints it goes to in one claim. */
  private readonly bodies = new WeakMap<AuditRecord, string>();

  constructor(
    private readonly webhooks: WebhookStore,
    private readonly audit: Pick<AuditStore, 'findAuditRecords'>,
    private readonly sender: WebhookSender,
    private readonly payloadOf: (record: AuditRecord) => string,
    private readonly clock: Clock,
    private readonly envelope: Envelope,
    private readonly options: WebhookWorkerOptions,
  ) {}

  /**
   * Leases up to `limit` due deliveries, with the endpoints and records their attempts need: two
   * reads for the whole claim rather than two for each delivery.
   */
  claim(limit: number): Promise<ClaimedWebhookDelivery[]> {
    return this.recordAndClaim([], limit);
  }

  /**
   * Records finished attempts and leases up to `limit` due deliveries in one transaction (their
   * lanes free for it), then reads the records of what it leased.
   */
  async recordAndClaim(results: WebhookAttemptResult[], limit: number): Promise<ClaimedWebhookDelivery[]> {
    const now = this.clock.now();
    const { deliveries, endpoints } = await this.webhooks.recordAndClaimWebhookDeliveries(results, {
      now,
      leaseUntil: new Date(now.getTime() + this.options.leaseMs),
      limit,
      perEndpoint: this.options.perEndpoint,
    });
    if (deliveries.length === 0) return [];
    const records = await this.audit.findAuditRecords([...new Set(deliveries.map((d) => d.sequenceId))]);
    const endpointOf = new Map(endpoints.map((e) => [e.id, e]));
    const recordOf = new Map(records.map((r) => [r.sequenceId, r]));
    return deliveries.map((delivery) => ({
      ...delivery,
      endpoint: endpointOf.get(delivery.endpointId) ?? null,
      record: recordOf.get(delivery.sequenceId) ?? null,
    }));
  }

  /** Claims what is due, attempts each once side by side and records them; answers how many. */
  async deliverDue(limit = 100): Promise<number> {
    const claimed = await this.claim(limit);
    const results = await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    await this.record(results.filter((r): r is WebhookAttemptResult => r !== null));
    return claimed.length;
  }

  /**
   * One attempt of a claimed delivery: what it did and what comes next, for `record`. Null when
   * the endpoint was deleted meanwhile (with its deliveries).
   */
  async attempt(delivery: ClaimedWebhookDelivery): Promise<WebhookAttemptResult | null> {
    const { endpoint, record } = delivery;
    if (!endpoint) return null;
    const at = this.clock.now();
    const response: WebhookResponse = record
      ? await this.post(endpoint, record, at)
      : { status: null, error: `audit record ${delivery.sequenceId} does not exist`, excerpt: null };
    const finished = this.clock.now();
    const attempt = delivery.attempts + 1;
    return {
      attempt: {
        deliveryId: delivery.id,
        attempt,
        at,
        durationMs: finished.getTime() - at.getTime(),
        status: response.status,
        error: response.error,
        responseExcerpt: response.excerpt,
      },
      outcome: this.outcome(response, attempt, finished),
    };
  }

  /** Logs attempts and releases their deliveries, in one transaction. */
  record(results: WebhookAttemptResult[]): Promise<void> {
    return this.webhooks.recordWebhookAttempts(results);
  }

  private async post(endpoint: WebhookEndpoint, record: AuditRecord, at: Date): Promise<WebhookResponse> {
    const body = this.bodyOf(record);
    let secrets: string[];
    try {
      secrets = this.secretsAt(endpoint, at);
    } catch (error) {
      // A KEK this control plane lacks, or a damaged row: a failed attempt, retried, never a secret.
      return { status: null, error: (error as Error).message, excerpt: null };
    }
    const signed = webhookHeaders({ id: webhookMessageId(record.sequenceId), timestamp: at, body }, secrets);
    return this.sender.send(endpoint.url, { 'content-type': 'application/json', ...signed }, body);
  }

  /** The secrets that sign at `at`: the current one, and the previous one during its overlap. */
  private secretsAt(endpoint: WebhookEndpoint, at: Date): string[] {
    const stored =
      endpoint.previousStoredSecret !== null &&
      endpoint.previousSecretExpiresAt !== null &&
      endpoint.previousSecretExpiresAt.getTime() > at.getTime()
        ? [endpoint.storedSecret, endpoint.previousStoredSecret]
        : [endpoint.storedSecret];
    return stored.map((secret) => this.opened(endpoint.id, secret));
  }

  private opened(endpointId: string, stored: string): string {
    const key = `${endpointId}\0${stored}`;
    let secret = this.openedSecrets.get(key);
    if (secret === undefined) {
      secret = openWebhookSecret(this.envelope, endpointId, stored);
      if (this.openedSecrets.size >= MAX_OPENED_SECRETS) {
        this.openedSecrets.delete(this.openedSecrets.keys().next().value as string);
      }
      this.openedSecrets.set(key, secret);
    }
    return secret;
  }

  private bodyOf(record: AuditRecord): string {
    let body = this.bodies.get(record);
    if (body === undefined) {
      body = this.payloadOf(record);
      this.bodies.set(record, body);
    }
    return body;
  }

  private outcome(response: WebhookResponse, attempt: number, now: Date): WebhookAttemptOutcome {
    if (response.status !== null && response.status >= 200 && response.status < 300) {
      return { state: 'succeeded', nextAttemptAt: now };
    }
    const delay = webhookRetryDelay(attempt, this.options.random);
    return delay === null
      ? { state: 'dead', nextAttemptAt: now }
      : { state: 'pending', nextAttemptAt: new Date(now.getTime() + delay) };
  }
}
