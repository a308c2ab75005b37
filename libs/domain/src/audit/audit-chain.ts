import { hash } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';
import type { AuditChainHead, AuditEventInput, AuditRecord } from './audit-record';

/** The `previous_hash` of record 1. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

/**
 * The hashed form of a record: its wire fields except the two hashes, with the time as an
 * RFC 3339 string in UTC with milliseconds. RFC 8785 fixes the bytes, so any party with the
 * record's JSON recomputes the same hash.
 */
export function auditRecordBody(sequenceId: number, event: AuditEventInput): Record<string, unknown> {
  return {
    sequence_id: sequenceId,
    tenant: event.tenant,
    actor: { kind: event.actorKind, id: event.actorId },
    action: event.action,
    target: event.target,
    outcome: event.outcome,
    occurred_at: event.occurredAt.toISOString(),
    correlation_id: event.correlationId,
    attributes: event.attributes,
  };
}

/** `record_hash` = hex SHA-256 of `previous_hash` (hex text) followed by the canonical JSON body. */
export function auditRecordHash(previousHash: string, sequenceId: number, event: AuditEventInput): string {
  return hash('sha256', previousHash + canonicalize(auditRecordBody(sequenceId, event)), 'hex');
}

/** The records that continue a chain whose head is (`lastSequenceId`, `lastHash`). */
export function chainAuditRecords(head: AuditChainHead, events: AuditEventInput[]): AuditRecord[] {
  let previousHash = head.lastHash;
  return events.map((event, index) => {
    const sequenceId = head.lastSequenceId + index + 1;
    const recordHash = auditRecordHash(previousHash, sequenceId, event);
    const record: AuditRecord = { ...event, sequenceId, previousHash, recordHash };
    previousHash = recordHash;
    return record;
  });
}

export type AuditChainBreak = 'sequence_gap' | 'previous_hash_mismatch' | 'record_hash_mismatch';

/** Where a walk along the chain stands: the last record that verified, or the first that did not. */
export type AuditChainCheck =
  | { valid: true; lastSequenceId: number; lastHash: string }
  | { valid: false; sequenceId: number; problem: AuditChainBreak };

/**
 * Checks records (ascending) against the chain so far: each follows the previous one's
 * sequence id and hash, and its own hash is what its content gives. Feed pages one after the
 * other by passing the last result back in.
 */
export function verifyAuditRecords(from: AuditChainHead, records: AuditRecord[]): AuditChainCheck {
  let { lastSequenceId, lastHash } = from;
  for (const record of records) {
    if (record.sequenceId !== lastSequenceId + 1) {
      return { valid: false, sequenceId: lastSequenceId + 1, problem: 'sequence_gap' };
    }
    if (record.previousHash !== lastHash) {
      return { valid: false, sequenceId: record.sequenceId, problem: 'previous_hash_mismatch' };
    }
    if (auditRecordHash(record.previousHash, record.sequenceId, record) !== record.recordHash) {
      return { valid: false, sequenceId: record.sequenceId, problem: 'record_hash_mismatch' };
    }
    lastSequenceId = record.sequenceId;
    lastHash = record.recordHash;
  }
  return { valid: true, lastSequenceId, lastHash };
}
