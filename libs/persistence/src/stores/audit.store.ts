import {
  chainAuditRecords,
  type AuditActorKind,
  type AuditChainHead,
  type AuditCheckpoint,
  type AuditEventInput,
  type AuditOutcome,
  type AuditQuery,
  type AuditRange,
  type AuditRecord,
  type AuditStore,
} from '@platform/domain';
import { type EntityManager, In } from 'typeorm';
import { AuditCheckpointEntity, AuditRecordEntity } from '../entities/audit-record.entity';
import { insertOnce } from './insert-once';
import { placeholderFor, valuesList, type Placeholder } from './raw-sql';

/** Rows per INSERT: keeps a big batch under SQLite's bound-parameter limit. */
const APPEND_CHUNK = 500;
/** The columns an audit record is inserted with, in the order of `auditRecordValues`. */
export const AUDIT_RECORD_COLUMNS =
  'sequence_id, previous_hash, record_hash, tenant, actor_kind, actor_id, action, target, outcome, occurred_at, correlation_id, attributes';
const COLUMN_COUNT = 12;

/** A record's values for an INSERT into AUDIT_RECORD_COLUMNS. */
export function auditRecordValues(r: AuditRecord): Array<string | number | null> {
  return [
    r.sequenceId,
    r.previousHash,
    r.recordHash,
    r.tenant,
    r.actorKind,
    r.actorId,
    r.action,
    r.target,
    r.outcome,
    r.occurredAt.getTime(),
    r.correlationId,
    JSON.stringify(r.attributes),
  ];
}

/**
 * The audit chain on SQL. An append first writes the one-row chain head (a no-op update), which
 * makes every other writer wait for this transaction: a row lock on Postgres, the database's
 * write lock on SQLite. Only then does it read the head, so two transactions can never continue
 * from the same record, and a rollback gives its sequence ids back.
 */
export class TypeOrmAuditStore implements AuditStore {
  private readonly placeholder: Placeholder;

  constructor(private readonly manager: EntityManager) {
    this.placeholder = placeholderFor(manager);
  }

  async appendAuditRecords(events: AuditEventInput[]): Promise<AuditRecord[]> {
    if (events.length === 0) return [];
    if (!this.manager.queryRunner?.isTransactionActive) {
      return this.manager.transaction((manager) => new TypeOrmAuditStore(manager).appendAuditRecords(events));
    }
    const $ = this.placeholder;
    await this.manager.query('UPDATE audit_chain_head SET last_sequence_id = last_sequence_id WHERE id = 1');
    const records = chainAuditRecords(await this.auditChainHead(), events);
    for (let start = 0; start < records.length; start += APPEND_CHUNK) {
      const chunk = records.slice(start, start + APPEND_CHUNK);
      await this.manager.query(
        `INSERT INTO audit_records (${AUDIT_RECORD_COLUMNS}) VALUES ${valuesList($, chunk.length, COLUMN_COUNT)}`,
        chunk.flatMap(auditRecordValues),
      );
    }
    const last = records[records.length - 1];
    await this.manager.query(
      `UPDATE audit_chain_head SET last_sequence_id = ${$(1)}, last_hash = ${$(2)} WHERE id = 1`,
      [last.sequenceId, last.recordHash],
    );
    return records;
  }

  async listAuditRecords(query: AuditQuery): Promise<AuditRecord[]> {
    const builder = this.manager
      .createQueryBuilder(AuditRecordEntity, 'r')
      .where('r.sequenceId > :after', { after: query.after ?? 0 })
      .orderBy('r.sequenceId', 'ASC')
      .limit(query.limit);
    if (query.through !== undefined) builder.andWhere('r.sequenceId <= :through', { through: query.through });
    if (query.tenant !== undefined) builder.andWhere('r.tenant = :tenant', { tenant: query.tenant });
    if (query.actorId !== undefined) builder.andWhere('r.actorId = :actorId', { actorId: query.actorId });
    if (query.action !== undefined) builder.andWhere('r.action = :action', { action: query.action });
    if (query.target !== undefined) builder.andWhere('r.target = :target', { target: query.target });
    if (query.since !== undefined)
      builder.andWhere('r.occurredAt >= :since', { since: query.since.getTime() });
    if (query.until !== undefined)
      builder.andWhere('r.occurredAt < :until', { until: query.until.getTime() });
    return (await builder.getMany()).map(toAuditRecord);
  }

  /** Plain SQL on the primary key, no entity hydration: the checkpoint reads the whole log through it. */
  async listAuditRecordHashes(range: AuditRange): Promise<string[]> {
    const $ = this.placeholder;
    const rows = (await this.manager.query(
      `SELECT record_hash FROM audit_records WHERE sequence_id > ${$(1)} AND sequence_id <= ${$(2)} ORDER BY sequence_id ASC LIMIT ${$(3)}`,
      [range.after, range.through, range.limit],
    )) as Array<{ record_hash: string }>;
    return rows.map((row) => row.record_hash);
  }

  async findAuditRecords(sequenceIds: number[]): Promise<AuditRecord[]> {
    if (sequenceIds.length === 0) return [];
    const rows = await this.manager.find(AuditRecordEntity, {
      where: { sequenceId: In(sequenceIds) },
      order: { sequenceId: 'ASC' },
    });
    return rows.map(toAuditRecord);
  }

  async insertAuditCheckpoint(checkpoint: AuditCheckpoint): Promise<'created' | 'duplicate'> {
    return insertOnce(this.manager, AuditCheckpointEntity, checkpoint);
  }

  async latestAuditCheckpoint(): Promise<AuditCheckpoint | null> {
    const [row] = await this.manager.find(AuditCheckpointEntity, { order: { treeSize: 'DESC' }, take: 1 });
    return row
      ? { treeSize: row.treeSize, rootHash: row.rootHash, signed: row.signed, createdAt: row.createdAt }
      : null;
  }

  async auditChainHead(): Promise<AuditChainHead> {
    const [row] = (await this.manager.query(
      'SELECT last_sequence_id, last_hash FROM audit_chain_head WHERE id = 1',
    )) as Array<{ last_sequence_id: string | number; last_hash: string }>;
    if (!row) throw new Error('the audit chain head is missing (run the migrations)');
    return { lastSequenceId: Number(row.last_sequence_id), lastHash: row.last_hash };
  }
}

function toAuditRecord(row: AuditRecordEntity): AuditRecord {
  return {
    sequenceId: row.sequenceId,
    previousHash: row.previousHash,
    recordHash: row.recordHash,
    tenant: row.tenant,
    actorKind: row.actorKind as AuditActorKind,
    actorId: row.actorId,
    action: row.action,
    target: row.target,
    outcome: row.outcome as AuditOutcome,
    occurredAt: row.occurredAt,
    correlationId: row.correlationId,
    attributes: JSON.parse(row.attributes) as AuditRecord['attributes'],
  };
}
