import type {
  WebhookAttempt,
  WebhookAttemptOutcome,
  WebhookClaim,
  WebhookDelivery,
  WebhookDeliveryInput,
  WebhookDeliveryQuery,
  WebhookDeliveryState,
  WebhookEndpoint,
  WebhookStore,
} from '@platform/domain';
import { In, type EntityManager } from 'typeorm';
import {
  WebhookAttemptEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
} from '../entities/webhook.entity';
import { placeholderFor, valuesList, type Placeholder } from './raw-sql';

/** Rows per INSERT: keeps a big fan-out under SQLite's bound-parameter limit. */
const INSERT_CHUNK = 500;
const DELIVERY_COLUMNS = 'endpoint_id, sequence_id, event_type, state, attempts, next_attempt_at, replay_of, created_at';
const DELIVERY_COLUMN_COUNT = 8;

export class TypeOrmWebhookStore implements WebhookStore {
  private readonly placeholder: Placeholder;

  constructor(private readonly manager: EntityManager) {
    this.placeholder = placeholderFor(manager);
  }

  async insertWebhookEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    await this.manager.insert(WebhookEndpointEntity, endpoint);
  }

  async findWebhookEndpoint(id: string): Promise<WebhookEndpoint | null> {
    return this.manager.findOneBy(WebhookEndpointEntity, { id });
  }

  async listWebhookEndpoints(): Promise<WebhookEndpoint[]> {
    return this.manager.find(WebhookEndpointEntity, { order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async updateWebhookEndpoint(endpoint: WebhookEndpoint): Promise<boolean> {
    const { id, ...fields } = endpoint;
    const result = await this.manager.update(WebhookEndpointEntity, { id }, fields);
    return (result.affected ?? 0) > 0;
  }

  async deleteWebhookEndpoint(id: string): Promise<boolean> {
    const $ = this.placeholder;
    await this.manager.query(
      `DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ${$(1)})`,
      [id],
    );
    await this.manager.delete(WebhookDeliveryEntity, { endpointId: id });
    const result = await this.manager.delete(WebhookEndpointEntity, { id });
    return (result.affected ?? 0) > 0;
  }

  async lockWebhookDispatchCursor(): Promise<number> {
    // A no-op write first: other dispatchers wait here until this transaction ends.
    await this.manager.query('UPDATE webhook_dispatch_cursor SET last_sequence_id = last_sequence_id WHERE id = 1');
    const [row] = (await this.manager.query('SELECT last_sequence_id FROM webhook_dispatch_cursor WHERE id = 1')) as Array<{
      last_sequence_id: string | number;
    }>;
    if (!row) throw new Error('the webhook dispatch cursor is missing (run the migrations)');
    return Number(row.last_sequence_id);
  }

  async setWebhookDispatchCursor(sequenceId: number): Promise<void> {
    await this.manager.query(`UPDATE webhook_dispatch_cursor SET last_sequence_id = ${this.placeholder(1)} WHERE id = 1`, [
      sequenceId,
    ]);
  }

  async insertWebhookDeliveries(deliveries: WebhookDeliveryInput[], now: Date): Promise<WebhookDelivery[]> {
    const created: WebhookDelivery[] = [];
    for (let start = 0; start < deliveries.length; start += INSERT_CHUNK) {
      const chunk = deliveries.slice(start, start + INSERT_CHUNK);
      const rows = (await this.manager.query(
        `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS}) VALUES ${valuesList(this.placeholder, chunk.length, DELIVERY_COLUMN_COUNT)} RETURNING id`,
        chunk.flatMap((d) => [d.endpointId, d.sequenceId, d.eventType, 'pending', 0, d.nextAttemptAt.getTime(), d.replayOf, now.getTime()]),
      )) as Array<{ id: string | number }>;
      // RETURNING gives the rows in the order of the VALUES list on both databases.
      chunk.forEach((d, index) =>
        created.push({ ...d, id: Number(rows[index].id), state: 'pending', attempts: 0, leaseUntil: null, createdAt: now }),
      );
    }
    return created;
  }

  /**
   * Ranks each endpoint's pending deliveries, those in flight first, and leases the due ones
   * whose rank is within the endpoint's lane. The lease is a conditional UPDATE, so when two
   * workers pick the same row only one of them gets it back from RETURNING.
   */
  async claimWebhookDeliveries(claim: WebhookClaim): Promise<WebhookDelivery[]> {
    const $ = this.placeholder;
    const now = claim.now.getTime();
    const candidates = (await this.manager.query(
      `SELECT id FROM (
         SELECT d.id, d.next_attempt_at, d.lease_until,
           ROW_NUMBER() OVER (
             PARTITION BY d.endpoint_id
             ORDER BY CASE WHEN d.lease_until > ${$(1)} THEN 0 ELSE 1 END, d.next_attempt_at, d.id
           ) AS lane
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE d.state = 'pending' AND e.disabled_at IS NULL
           AND (d.next_attempt_at <= ${$(2)} OR d.lease_until > ${$(3)})
       ) ranked
       WHERE lane <= ${$(4)} AND (lease_until IS NULL OR lease_until <= ${$(5)})
       ORDER BY next_attempt_at, id
       LIMIT ${$(6)}`,
      [now, now, now, claim.perEndpoint, now, claim.limit],
    )) as Array<{ id: string | number }>;
    if (candidates.length === 0) return [];
    const ids = candidates.map((row) => Number(row.id));
    const leased = await this.manager.query(
      `UPDATE webhook_deliveries SET lease_until = ${$(1)}
       WHERE state = 'pending' AND (lease_until IS NULL OR lease_until <= ${$(2)})
         AND id IN (${ids.map((_, i) => $(i + 3)).join(', ')})
       RETURNING id`,
      [claim.leaseUntil.getTime(), now, ...ids],
    );
    const won = new Set(rowsOf(leased).map((row) => Number(row.id)));
    const rows = await this.manager.find(WebhookDeliveryEntity, {
      where: { id: In([...won]) },
      order: { nextAttemptAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toDelivery);
  }

  async recordWebhookAttempt(attempt: WebhookAttempt, outcome: WebhookAttemptOutcome): Promise<void> {
    const run = async (manager: EntityManager) => {
      await manager.insert(WebhookAttemptEntity, attempt);
      await manager.query(
        `UPDATE webhook_deliveries SET attempts = attempts + 1, state = ${this.placeholder(1)}, next_attempt_at = ${this.placeholder(2)}, lease_until = NULL WHERE id = ${this.placeholder(3)}`,
        [outcome.state, outcome.nextAttemptAt.getTime(), attempt.deliveryId],
      );
    };
    if (this.manager.queryRunner?.isTransactionActive) await run(this.manager);
    else await this.manager.transaction(run);
  }

  async findWebhookDelivery(id: number): Promise<WebhookDelivery | null> {
    const row = await this.manager.findOneBy(WebhookDeliveryEntity, { id });
    return row ? toDelivery(row) : null;
  }

  async listWebhookDeliveries(query: WebhookDeliveryQuery): Promise<WebhookDelivery[]> {
    const builder = this.manager
      .createQueryBuilder(WebhookDeliveryEntity, 'd')
      .where('d.endpointId = :endpointId', { endpointId: query.endpointId })
      .andWhere('d.id > :after', { after: query.after ?? 0 })
      .orderBy('d.id', 'ASC')
      .limit(query.limit);
    if (query.state !== undefined) builder.andWhere('d.state = :state', { state: query.state });
    return (await builder.getMany()).map(toDelivery);
  }

  async listWebhookAttempts(deliveryIds: number[]): Promise<WebhookAttempt[]> {
    if (deliveryIds.length === 0) return [];
    return this.manager.find(WebhookAttemptEntity, {
      where: { deliveryId: In(deliveryIds) },
      order: { deliveryId: 'ASC', attempt: 'ASC' },
    });
  }
}

/** The rows of an UPDATE ... RETURNING: Postgres answers [rows, count], SQLite the rows. */
function rowsOf(result: unknown): Array<{ id: string | number }> {
  const rows = Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) ? result[0] : result;
  return rows as Array<{ id: string | number }>;
}

function toDelivery(row: WebhookDeliveryEntity): WebhookDelivery {
  return { ...row, state: row.state as WebhookDeliveryState };
}
