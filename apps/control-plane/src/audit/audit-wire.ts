import { DEFAULT_PAGE_SIZE, type AuditRecordDto, type ListAuditRecordsQueryDto } from '@platform/contract';
import type { AuditQuery, AuditRecord } from '@platform/domain';

/** A record as the API and the hash rule write it. */
export function toAuditRecordResponse(record: AuditRecord): AuditRecordDto {
  return {
    sequence_id: record.sequenceId,
    previous_hash: record.previousHash,
    record_hash: record.recordHash,
    tenant: record.tenant,
    actor: { kind: record.actorKind, id: record.actorId },
    action: record.action,
    target: record.target,
    outcome: record.outcome,
    occurred_at: record.occurredAt.toISOString(),
    correlation_id: record.correlationId,
    attributes: record.attributes,
  };
}

export function toAuditQuery(query: ListAuditRecordsQueryDto): Omit<AuditQuery, 'tenant'> {
  return {
    after: query.after,
    limit: query.limit ?? DEFAULT_PAGE_SIZE,
    since: query.since === undefined ? undefined : new Date(query.since),
    until: query.until === undefined ? undefined : new Date(query.until),
    actorId: query.actor,
    action: query.action,
    target: query.target,
  };
}

export function toAuditPage(records: AuditRecord[], after: number | undefined) {
  return {
    records: records.map(toAuditRecordResponse),
    next_after: records.length > 0 ? records[records.length - 1].sequenceId : (after ?? 0),
  };
}
