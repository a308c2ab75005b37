import type { TokenEvent, TokenEventInput, TokenEventStore, TokenEventType } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { TokenEventEntity } from '../entities/token-event.entity';
import { pruneBatch } from './prune-batch';
import { placeholderFor, valuesList, type Placeholder } from './raw-sql';

/** Rows per INSERT: keeps a huge batch under SQLite's bound-parameter limit. */
const APPEND_CHUNK = 1_000;
/** The columns a token event is inserted with, in the order of `tokenEventValues`. */
export const TOKEN_EVENT_COLUMNS = 'type, client_id, subject, jti, grant_id, occurred_at';
const COLUMN_COUNT = 6;

/** An event's values for an INSERT into TOKEN_EVENT_COLUMNS. */
export function tokenEventValues(e: TokenEventInput): Array<string | number | null> {
  return [e.type, e.clientId, e.subject, e.jti, e.grantId, e.occurredAt.getTime()];
}

export class TypeOrmTokenEventStore implements TokenEventStore {
  private readonly placeholder: Placeholder;

  constructor(private readonly manager: EntityManager) {
    this.placeholder = placeholderFor(manager);
  }

  /** Runs on every token request: one plain multi-row INSERT, no query builder, no RETURNING. */
  async appendTokenEvents(events: TokenEventInput[]): Promise<void> {
    for (let start = 0; start < events.length; start += APPEND_CHUNK) {
      const chunk = events.slice(start, start + APPEND_CHUNK);
      await this.manager.query(
        `INSERT INTO token_events (${TOKEN_EVENT_COLUMNS}) VALUES ${valuesList(this.placeholder, chunk.length, COLUMN_COUNT)}`,
        chunk.flatMap(tokenEventValues),
      );
    }
  }

  async listTokenEvents(query: { after?: number; limit: number; clientId?: string }): Promise<TokenEvent[]> {
    const builder = this.manager
      .createQueryBuilder(TokenEventEntity, 'e')
      .where('e.id > :after', { after: query.after ?? 0 })
      .orderBy('e.id', 'ASC')
      .limit(query.limit);
    if (query.clientId !== undefined)
      builder.andWhere('e.clientId = :clientId', { clientId: query.clientId });
    const rows = await builder.getMany();
    return rows.map(toTokenEvent);
  }

  pruneTokenEvents(before: Date, limit: number): Promise<number> {
    // The oldest `limit` rows by the primary key, rather than an index on occurred_at that every
    // token's INSERT would pay for: ids ascend with time, so the old ones come first.
    return pruneBatch(
      this.manager,
      TokenEventEntity,
      'id',
      `SELECT id FROM (SELECT id, occurred_at FROM token_events ORDER BY id LIMIT :limit) oldest
       WHERE occurred_at < :before`,
      { before: before.getTime(), limit },
    );
  }
}

function toTokenEvent(row: TokenEventEntity): TokenEvent {
  return {
    id: row.id,
    type: row.type as TokenEventType,
    clientId: row.clientId,
    subject: row.subject,
    jti: row.jti,
    grantId: row.grantId,
    occurredAt: row.occurredAt,
  };
}
