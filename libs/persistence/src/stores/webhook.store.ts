import type {
  ClaimedWebhookDeliveries,
  WebhookAttempt,
  WebhookAttemptResult,
  WebhookClaim,
  WebhookDelivery,
  WebhookDeliveryInput,
  WebhookDeliveryQuery,
  StoredWebhookSecrets,
  WebhookDeliveryState,
  WebhookEndpoint,
  WebhookStore,
} from '@platform/domain';
import { In, IsNull, type EntityManager } from 'typeorm';
import {
  WebhookAttemptEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
} from '../entities/webhook.entity';
import { placeholderFor, valuesList, type Placeholder } from './raw-sql';

/** Rows per INSERT: keeps a big fan-out under SQLite's bound-parameter limit. */
const INSERT_CHUNK = 500;
const DELIVERY_COLUMNS =
  'endpoint_id, sequence_id, event_type, state, attempts, next_attempt_at, replay_of, created_at';
const DELIVERY_COLUMN_COUNT = 8;
const DELIVERY_RETURNING =
  'id, endpoint_id, sequence_id, event_type, state, attempts, next_attempt_at, lease_until, replay_of, created_at';
const ATTEMPT_COLUMNS = 'delivery_id, attempt, at, duration_ms, status, error, response_excerpt';
const ATTEMPT_COLUMN_COUNT = 7;
/** Attempts per statement when recording: under SQLite's bound-parameter limit. */
const RECORD_CHUNK = 500;

export class TypeOrmWebhookStore implements WebhookStore {
  private readonly placeholder: Placeholder;

  private readonly postgres: boolean;

  constructor(private readonly manager: EntityManager) {
    this.placeholder = placeholderFor(manager);
    this.postgres = manager.connection.options.type === 'postgres';
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

  async replaceWebhookSecrets(
    id: string,
    expected: StoredWebhookSecrets,
    next: StoredWebhookSecrets,
  ): Promise<boolean> {
    const result = await this.manager.update(
      WebhookEndpointEntity,
      {
        id,
        storedSecret: expected.storedSecret,
        previousStoredSecret: expected.previousStoredSecret ?? IsNull(),
      },
      { storedSecret: next.storedSecret, previousStoredSecret: next.previousStoredSecret },
    );
    return (result.affected ?? 0) > 0;
  }

  async deleteWebhookEndpoint(id: string): Promise<boolean> {
    const $ = this.placeholder;
    // The endpoint's row first, as a claim takes it, so the two cannot deadlock on Postgres.
    if (this.postgres)
      await this.manager.query(`SELECT id FROM webhook_endpoints WHERE id = $1 FOR UPDATE`, [id]);
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
    await this.manager.query(
      'UPDATE webhook_dispatch_cursor SET last_sequence_id = last_sequence_id WHERE id = 1',
    );
    const [row] = (await this.manager.query(
      'SELECT last_sequence_id FROM webhook_dispatch_cursor WHERE id = 1',
    )) as Array<{
      last_sequence_id: string | number;
    }>;
    if (!row) throw new Error('the webhook dispatch cursor is missing (run the migrations)');
    return Number(row.last_sequence_id);
  }

  async setWebhookDispatchCursor(sequenceId: number): Promise<void> {
    await this.manager.query(
      `UPDATE webhook_dispatch_cursor SET last_sequence_id = ${this.placeholder(1)} WHERE id = 1`,
      [sequenceId],
    );
  }

  async insertWebhookDeliveries(deliveries: WebhookDeliveryInput[], now: Date): Promise<WebhookDelivery[]> {
    const created: WebhookDelivery[] = [];
    for (let start = 0; start < deliveries.length; start += INSERT_CHUNK) {
      const chunk = deliveries.slice(start, start + INSERT_CHUNK);
      const rows = (await this.manager.query(
        `INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS}) VALUES ${valuesList(this.placeholder, chunk.length, DELIVERY_COLUMN_COUNT)} RETURNING id`,
        chunk.flatMap((d) => [
          d.endpointId,
          d.sequenceId,
          d.eventType,
          'pending',
          0,
          d.nextAttemptAt.getTime(),
          d.replayOf,
          now.getTime(),
        ]),
      )) as Array<{ id: string | number }>;
      // RETURNING gives the rows in the order of the VALUES list on both databases.
      chunk.forEach((d, index) =>
        created.push({
          ...d,
          id: Number(rows[index].id),
          state: 'pending',
          attempts: 0,
          leaseUntil: null,
          createdAt: now,
        }),
      );
    }
    return created;
  }

  recordAndClaimWebhookDeliveries(
    finished: WebhookAttemptResult[],
    claim: WebhookClaim,
  ): Promise<ClaimedWebhookDeliveries> {
    return this.transactional(async (manager) => {
      // Claimers take turns on the enabled endpoints' rows (Postgres; SQLite writes one at a
      // time), so the lanes each counts are not filled by another meanwhile. Taken before the
      // attempts are recorded: an endpoint's deletion locks its row before its deliveries too.
      const builder = manager
        .createQueryBuilder(WebhookEndpointEntity, 'e')
        .where('e.disabledAt IS NULL')
        .orderBy('e.createdAt', 'ASC')
        .addOrderBy('e.id', 'ASC');
      const endpoints = await (this.postgres ? builder.setLock('pessimistic_write') : builder).getMany();
      await this.recordIn(manager, finished);
      const deliveries = claim.limit > 0 ? await this.claimIn(manager, claim, endpoints) : [];
      const claimedFor = new Set(deliveries.map((d) => d.endpointId));
      return { deliveries, endpoints: endpoints.filter((e) => claimedFor.has(e.id)) };
    });
  }

  /**
   * Counts each endpoint's leased deliveries, then reads the due ones of each enabled endpoint up
   * to its free lane, oldest due first; both by index, so a deep backlog costs no scan. The lease
   * is a conditional UPDATE: when two workers pick the same row only one gets it back from
   * RETURNING.
   */
  private async claimIn(
    manager: EntityManager,
    claim: WebhookClaim,
    endpoints: WebhookEndpoint[],
  ): Promise<WebhookDelivery[]> {
    if (endpoints.length === 0) return [];
    const $ = this.placeholder;
    const now = claim.now.getTime();
    // Counted here, not with GROUP BY: for that, SQLite walks the whole table in endpoint order
    // instead of the few leased rows by the lease index.
    const leased = (await manager.query(
      `SELECT endpoint_id FROM webhook_deliveries WHERE lease_until > ${$(1)} AND state = 'pending'`,
      [now],
    )) as Array<{ endpoint_id: string }>;
    const inFlight = new Map<string, number>();
    for (const { endpoint_id } of leased) inFlight.set(endpoint_id, (inFlight.get(endpoint_id) ?? 0) + 1);
    // Each endpoint's oldest due up to its lane, by the due index: one statement for all of them.
    const lanes: string[] = [];
    const parameters: Array<string | number> = [];
    for (const { id: endpointId } of endpoints) {
      const lane = Math.min(claim.perEndpoint - (inFlight.get(endpointId) ?? 0), claim.limit);
      if (lane <= 0) continue;
      const n = parameters.length;
      lanes.push(
        `SELECT * FROM (SELECT id, next_attempt_at FROM webhook_deliveries
           WHERE endpoint_id = ${$(n + 1)} AND state = 'pending' AND next_attempt_at <= ${$(n + 2)}
             AND (lease_until IS NULL OR lease_until <= ${$(n + 3)})
           ORDER BY next_attempt_at, id LIMIT ${$(n + 4)}) AS lane${lanes.length}`,
      );
      parameters.push(endpointId, now, now, lane);
    }
    if (lanes.length === 0) return [];
    const candidates = (
      (await manager.query(lanes.join(' UNION ALL '), parameters)) as Array<{
        id: string | number;
        next_attempt_at: string | number;
      }>
    ).map((row) => ({ id: Number(row.id), due: Number(row.next_attempt_at) }));
    if (candidates.length === 0) return [];
    const ids = candidates
      .sort((a, b) => a.due - b.due || a.id - b.id)
      .slice(0, claim.limit)
      .map((candidate) => candidate.id);
    const won = await manager.query(
      `UPDATE webhook_deliveries SET lease_until = ${$(1)}
       WHERE state = 'pending' AND (lease_until IS NULL OR lease_until <= ${$(2)})
         AND id IN (${ids.map((_, i) => $(i + 3)).join(', ')})
       RETURNING ${DELIVERY_RETURNING}`,
      [claim.leaseUntil.getTime(), now, ...ids],
    );
    return (rowsOf(won) as DeliveryRow[])
      .map(fromDeliveryRow)
      .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id);
  }

  async recordWebhookAttempts(results: WebhookAttemptResult[]): Promise<void> {
    if (results.length === 0) return;
    await this.transactional((manager) => this.recordIn(manager, results));
  }

  /**
   * Moves each delivery on (one UPDATE for the batch) and logs the attempts of those it found:
   * attempts of deliveries deleted meanwhile (with their endpoint) are dropped.
   */
  private async recordIn(manager: EntityManager, results: WebhookAttemptResult[]): Promise<void> {
    const $ = this.placeholder;
    for (let start = 0; start < results.length; start += RECORD_CHUNK) {
      const chunk = results.slice(start, start + RECORD_CHUNK);
      const parameters: Array<string | number> = [];
      const bind = (value: string | number) => $(parameters.push(value));
      const states = chunk.map((r) => `WHEN ${bind(r.attempt.deliveryId)} THEN ${bind(r.outcome.state)}`);
      const due = chunk.map(
        (r) =>
          `WHEN ${bind(r.attempt.deliveryId)} THEN CAST(${bind(r.outcome.nextAttemptAt.getTime())} AS bigint)`,
      );
      const ids = chunk.map((r) => bind(r.attempt.deliveryId));
      const updated = await manager.query(
        `UPDATE webhook_deliveries SET attempts = attempts + 1, lease_until = NULL,
           state = CASE id ${states.join(' ')} END, next_attempt_at = CASE id ${due.join(' ')} END
         WHERE id IN (${ids.join(', ')}) RETURNING id`,
        parameters,
      );
      const live = new Set(rowsOf(updated).map((row) => Number(row.id)));
      const kept = chunk.filter((r) => live.has(r.attempt.deliveryId));
      if (kept.length === 0) continue;
      await manager.query(
        `INSERT INTO webhook_attempts (${ATTEMPT_COLUMNS}) VALUES ${valuesList($, kept.length, ATTEMPT_COLUMN_COUNT)}`,
        kept.flatMap(({ attempt: a }) => [
          a.deliveryId,
          a.attempt,
          a.at.getTime(),
          a.durationMs,
          a.status,
          a.error,
          a.responseExcerpt,
        ]),
      );
    }
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

  /** Runs in the caller's transaction, or in one of its own. */
  private transactional<T>(run: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.manager.queryRunner?.isTransactionActive ? run(this.manager) : this.manager.transaction(run);
  }
}

/** The rows of an UPDATE ... RETURNING: Postgres answers [rows, count], SQLite the rows. */
function rowsOf(result: unknown): Array<{ id: string | number }> {
  const rows = Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) ? result[0] : result;
  return rows as Array<{ id: string | number }>;
}

type Numeric = string | number;

/** A webhook_deliveries row as a raw query answers it (Postgres gives bigints as strings). */
interface DeliveryRow {
  id: Numeric;
  endpoint_id: string;
  sequence_id: Numeric;
  event_type: string;
  state: string;
  attempts: Numeric;
  next_attempt_at: Numeric;
  lease_until: Numeric | null;
  replay_of: Numeric | null;
  created_at: Numeric;
}

function fromDeliveryRow(row: DeliveryRow): WebhookDelivery {
  return {
    id: Number(row.id),
    endpointId: row.endpoint_id,
    sequenceId: Number(row.sequence_id),
    eventType: row.event_type,
    state: row.state as WebhookDeliveryState,
    attempts: Number(row.attempts),
    nextAttemptAt: new Date(Number(row.next_attempt_at)),
    leaseUntil: row.lease_until === null ? null : new Date(Number(row.lease_until)),
    replayOf: row.replay_of === null ? null : Number(row.replay_of),
    createdAt: new Date(Number(row.created_at)),
  };
}

function toDelivery(row: WebhookDeliveryEntity): WebhookDelivery {
  return { ...row, state: row.state as WebhookDeliveryState };
}
