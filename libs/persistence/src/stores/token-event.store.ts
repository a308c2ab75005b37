import type { TokenEvent, TokenEventInput, TokenEventStore, TokenEventType } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { TokenEventEntity } from '../entities/token-event.entity';

/** Rows per INSERT: keeps a huge batch under SQLite's bound-parameter limit. */
const APPEND_CHUNK = 1_000;

export class TypeOrmTokenEventStore implements TokenEventStore {
  constructor(private readonly manager: EntityManager) {}

  async appendTokenEvents(events: TokenEventInput[]): Promise<void> {
    for (let start = 0; start < events.length; start += APPEND_CHUNK) {
      // updateEntity(false): no RETURNING or re-select, one multi-row INSERT.
      await this.manager
        .createQueryBuilder()
        .insert()
        .into(TokenEventEntity)
        .values(events.slice(start, start + APPEND_CHUNK).map((event) => ({ ...event })))
        .updateEntity(false)
        .execute();
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
