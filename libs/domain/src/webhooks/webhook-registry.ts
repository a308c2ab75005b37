import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { DomainError, notFound, validationFailed } from '../errors';
import type { AuditActor, AuditTrail } from '../audit/audit-trail';
import type { Stores, Transactor } from '../storage';
import type { Envelope } from '../secrets/envelope';
import { rewrapText } from '../secrets/sealed-text';
import {
  endpointReceives,
  EVENT_TYPE_PATTERN,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookDeliveryQuery,
  type RevealedWebhookEndpoint,
  type StoredWebhookSecrets,
  type WebhookEndpoint,
  type WebhookStore,
} from './webhook-endpoint';
import { ensureSealedWebhookSecret, sealWebhookSecret } from './sealed-webhook-secret';
import { newWebhookSecret } from './webhook-signature';
import { checkWebhookUrl, type WebhookUrlPolicy } from './webhook-url-policy';

export interface WebhookEndpointInput {
  url: string;
  eventTypes: string[];
  tenant?: string | null;
  description?: string;
  enabled?: boolean;
}

export type WebhookEndpointChange = Partial<
  Pick<WebhookEndpointInput, 'url' | 'eventTypes' | 'description' | 'enabled'>
>;

export interface WebhookDeliveryLogEntry extends WebhookDelivery {
  log: WebhookAttempt[];
}

/** How long the previous secret keeps signing after a rotation, unless the caller says. */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 24 * 3600;
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 24 * 3600;
/** A replay queues at most this many deliveries; a wider range is refused, to be split. */
export const MAX_REPLAY_DELIVERIES = 10_000;
const REPLAY_PAGE = 500;

/**
 * The admin side of webhooks: endpoints, secrets, the delivery log and replays. Every change
 * is audited in its own transaction (`webhook.*`). Secrets are stored sealed by the secrets'
 * envelope (docs/secrets.md).
 */
export class WebhookRegistry {
  constructor(
    private readonly webhooks: WebhookStore,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
    private readonly policy: WebhookUrlPolicy,
    private readonly envelope: Envelope,
  ) {}

  /** Registers an endpoint; the answer carries its secret, which is never shown again. */
  async register(input: WebhookEndpointInput, actor: AuditActor): Promise<RevealedWebhookEndpoint> {
    const url = checkWebhookUrl(input.url, this.policy).href;
    checkEventTypes(input.eventTypes);
    const now = this.clock.now();
    return this.transactor.inTransaction(async (stores) => {
      const id = `wh_${randomBytes(16).toString('base64url')}`;
      const tenant = input.tenant ?? null;
      const eventTypes = [...new Set(input.eventTypes)];
      // Audited first, so the chain's head is past its own registration: it starts after that.
      await this.audit(
        stores,
        actor,
        'webhook.registered',
        { id, tenant },
        { url, event_types: eventTypes.join(' ') },
      );
      const secret = newWebhookSecret();
      const endpoint: WebhookEndpoint = {
        id,
        url,
        description: input.description ?? '',
        eventTypes,
        tenant,
        disabledAt: input.enabled === false ? now : null,
        storedSecret: sealWebhookSecret(this.envelope, id, secret),
        previousStoredSecret: null,
        previousSecretExpiresAt: null,
        startAfterSequence: (await stores.audit.auditChainHead()).lastSequenceId,
        createdAt: now,
        updatedAt: now,
      };
      await stores.webhooks.insertWebhookEndpoint(endpoint);
      return { ...endpoint, secret };
    });
  }

  list(): Promise<WebhookEndpoint[]> {
    return this.webhooks.listWebhookEndpoints();
  }

  async get(id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.webhooks.findWebhookEndpoint(id);
    if (!endpoint) throw notFound(`webhook endpoint ${id}`);
    return endpoint;
  }

  async update(id: string, change: WebhookEndpointChange, actor: AuditActor): Promise<WebhookEndpoint> {
    const url = change.url === undefined ? undefined : checkWebhookUrl(change.url, this.policy).href;
    if (change.eventTypes !== undefined) checkEventTypes(change.eventTypes);
    return this.changing(id, actor, 'webhook.updated', async (endpoint, now, stores) => {
      const enabling = change.enabled === true && endpoint.disabledAt !== null;
      return {
        ...endpoint,
        url: url ?? endpoint.url,
        eventTypes: change.eventTypes ? [...new Set(change.eventTypes)] : endpoint.eventTypes,
        description: change.description ?? endpoint.description,
        disabledAt:
          change.enabled === undefined
            ? endpoint.disabledAt
            : change.enabled
              ? null
              : (endpoint.disabledAt ?? now),
        // What happened while it was disabled (this change's own record included) is not queued
        // for it: a replay sends that.
        startAfterSequence: enabling
          ? (await stores.audit.auditChainHead()).lastSequenceId
          : endpoint.startAfterSequence,
      };
    });
  }

  /**
   * A new secret, shown once. The previous one keeps signing beside it for `overlapSeconds`, so
   * receivers can move to the new one without refusing a single delivery.
   */
  async rotateSecret(
    id: string,
    actor: AuditActor,
    overlapSeconds: number = DEFAULT_SECRET_OVERLAP_SECONDS,
  ): Promise<RevealedWebhookEndpoint> {
    if (
      !Number.isInteger(overlapSeconds) ||
      overlapSeconds < 0 ||
      overlapSeconds > MAX_SECRET_OVERLAP_SECONDS
    ) {
      throw validationFailed(`overlap_seconds must be an integer from 0 to ${MAX_SECRET_OVERLAP_SECONDS}`);
    }
    const secret = newWebhookSecret();
    const rotated = await this.changing(id, actor, 'webhook.secret_rotated', async (endpoint, now) => ({
      ...endpoint,
      storedSecret: sealWebhookSecret(this.envelope, id, secret),
      previousStoredSecret: overlapSeconds > 0 ? endpoint.storedSecret : null,
      previousSecretExpiresAt: overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null,
    }));
    return { ...rotated, secret };
  }

  /**
   * Seals the secrets an earlier release stored in the clear: answers how many endpoints it
   * changed, and the endpoints whose stored secret is damaged, which it leaves as they are and
   * goes on past (they answer 503 when used, as any damaged sealed value does).
   */
  async sealClearSecrets(): Promise<{ sealed: number; damaged: string[] }> {
    const damaged: string[] = [];
    const sealed = await this.restore((id, stored) => ensureSealedWebhookSecret(this.envelope, id, stored), {
      onDamaged: (id) => damaged.push(id),
    });
    return { sealed, damaged };
  }

  /**
   * After a KEK rotation: moves every sealed secret under the current KEK (and seals any still
   * in the clear); answers how many endpoints it changed.
   */
  rewrapSecrets(): Promise<number> {
    return this.restore((id, stored) => {
      const sealed = ensureSealedWebhookSecret(this.envelope, id, stored);
      return rewrapText(this.envelope, sealed) ?? sealed;
    });
  }

  /**
   * Stores each endpoint's secrets as `form` has them; one a rotation changed meanwhile is left
   * be. A damaged stored secret stops the pass, unless `onDamaged` is given: that endpoint is
   * then reported and skipped.
   */
  private async restore(
    form: (endpointId: string, stored: string) => string,
    { onDamaged }: { onDamaged?: (endpointId: string) => void } = {},
  ): Promise<number> {
    let changed = 0;
    for (const endpoint of await this.webhooks.listWebhookEndpoints()) {
      const { id, storedSecret, previousStoredSecret } = endpoint;
      let next: StoredWebhookSecrets;
      try {
        next = {
          storedSecret: form(id, storedSecret),
          previousStoredSecret: previousStoredSecret === null ? null : form(id, previousStoredSecret),
        };
      } catch (error) {
        if (!onDamaged || !(error instanceof DomainError && error.code === 'unavailable')) throw error;
        onDamaged(id);
        continue;
      }
      const same = next.storedSecret === storedSecret && next.previousStoredSecret === previousStoredSecret;
      if (!same && (await this.webhooks.replaceWebhookSecrets(id, endpoint, next))) changed += 1;
    }
    return changed;
  }

  async delete(id: string, actor: AuditActor): Promise<void> {
    await this.transactor.inTransaction(async (stores) => {
      const endpoint = await stores.webhooks.findWebhookEndpoint(id);
      if (!endpoint || !(await stores.webhooks.deleteWebhookEndpoint(id)))
        throw notFound(`webhook endpoint ${id}`);
      await this.audit(stores, actor, 'webhook.deleted', endpoint, { url: endpoint.url });
    });
  }

  /** The endpoint's deliveries, each with the log of its attempts. */
  async deliveries(query: WebhookDeliveryQuery): Promise<WebhookDeliveryLogEntry[]> {
    await this.get(query.endpointId);
    const deliveries = await this.webhooks.listWebhookDeliveries(query);
    const attempts = await this.webhooks.listWebhookAttempts(deliveries.map((d) => d.id));
    return deliveries.map((delivery) => ({
      ...delivery,
      log: attempts.filter((a) => a.deliveryId === delivery.id),
    }));
  }

  /** Sends one delivery's record again, as a new delivery with a fresh schedule. */
  async replayDelivery(endpointId: string, deliveryId: number, actor: AuditActor): Promise<WebhookDelivery> {
    return this.transactor.inTransaction(async (stores) => {
      const endpoint = await stores.webhooks.findWebhookEndpoint(endpointId);
      const original = await stores.webhooks.findWebhookDelivery(deliveryId);
      if (!endpoint || !original || original.endpointId !== endpointId) {
        throw notFound(`delivery ${deliveryId} of webhook endpoint ${endpointId}`);
      }
      const now = this.clock.now();
      const [replay] = await stores.webhooks.insertWebhookDeliveries(
        [
          {
            endpointId,
            sequenceId: original.sequenceId,
            eventType: original.eventType,
            replayOf: original.id,
            nextAttemptAt: now,
          },
        ],
        now,
      );
      await this.audit(stores, actor, 'webhook.replayed', endpoint, {
        deliveries: 1,
        delivery_id: deliveryId,
      });
      return replay;
    });
  }

  /**
   * Queues again every record of [since, until) the endpoint subscribes to (its tenant and
   * event types, whether or not it existed then), oldest first. Answers how many.
   */
  async replayRange(endpointId: string, since: Date, until: Date, actor: AuditActor): Promise<number> {
    if (until.getTime() <= since.getTime()) throw validationFailed('until must be after since');
    return this.transactor.inTransaction(async (stores) => {
      const endpoint = await stores.webhooks.findWebhookEndpoint(endpointId);
      if (!endpoint) throw notFound(`webhook endpoint ${endpointId}`);
      const subscription = { ...endpoint, startAfterSequence: 0, disabledAt: null };
      const now = this.clock.now();
      let queued = 0;
      for (let after = 0; ;) {
        const page = await stores.audit.listAuditRecords({
          since,
          until,
          after,
          limit: REPLAY_PAGE,
          ...(endpoint.tenant === null ? {} : { tenant: endpoint.tenant }),
        });
        const wanted = page.filter((record) => endpointReceives(subscription, record));
        queued += wanted.length;
        if (queued > MAX_REPLAY_DELIVERIES) {
          throw validationFailed(
            `the range holds more than ${MAX_REPLAY_DELIVERIES} records for this endpoint: replay it in parts`,
          );
        }
        await stores.webhooks.insertWebhookDeliveries(
          wanted.map((record) => ({
            endpointId,
            sequenceId: record.sequenceId,
            eventType: record.action,
            replayOf: null,
            nextAttemptAt: now,
          })),
          now,
        );
        if (page.length < REPLAY_PAGE) break;
        after = page[page.length - 1].sequenceId;
      }
      await this.audit(stores, actor, 'webhook.replayed', endpoint, {
        deliveries: queued,
        since: since.toISOString(),
        until: until.toISOString(),
      });
      return queued;
    });
  }

  private changing(
    id: string,
    actor: AuditActor,
    action: string,
    change: (endpoint: WebhookEndpoint, now: Date, stores: Stores) => Promise<WebhookEndpoint>,
  ): Promise<WebhookEndpoint> {
    return this.transactor.inTransaction(async (stores) => {
      const endpoint = await stores.webhooks.findWebhookEndpoint(id);
      if (!endpoint) throw notFound(`webhook endpoint ${id}`);
      await this.audit(stores, actor, action, endpoint, {});
      const now = this.clock.now();
      const changed = { ...(await change(endpoint, now, stores)), updatedAt: now };
      await stores.webhooks.updateWebhookEndpoint(changed);
      return changed;
    });
  }

  private async audit(
    stores: Stores,
    actor: AuditActor,
    action: string,
    endpoint: Pick<WebhookEndpoint, 'id' | 'tenant'>,
    attributes: Record<string, string | number>,
  ): Promise<void> {
    await stores.audit.appendAuditRecords([
      this.trail.record({ actor, action, target: endpoint.id, tenant: endpoint.tenant, attributes }),
    ]);
  }
}

function checkEventTypes(eventTypes: readonly string[]): void {
  if (eventTypes.length === 0 || eventTypes.length > 50)
    throw validationFailed('event_types must list 1 to 50 event types');
  const bad = eventTypes.find((type) => type.length > 128 || !EVENT_TYPE_PATTERN.test(type));
  if (bad !== undefined) {
    throw validationFailed(
      `event type ${JSON.stringify(bad.slice(0, 128))} is not an action name, a prefix like token.* or *`,
    );
  }
}
