import { createHash } from 'node:crypto';
import { AUDIT_GENESIS_HASH, auditRecordHash, chainAuditRecords, verifyAuditRecords } from './audit-chain';
import type { AuditEventInput } from './audit-record';

const event: AuditEventInput = {
  tenant: 'acme',
  actorKind: 'app',
  actorId: 'app-billing',
  action: 'invoice.paid',
  target: 'invoice-42',
  outcome: 'success',
  occurredAt: new Date('2026-11-25T10:00:00.000Z'),
  correlationId: 'req-1',
  attributes: { currency: 'EUR', amount: 12.5, refunded: false, note: null, 'z-last': 1e21 },
};

/** The record's body as RFC 8785 writes it: keys sorted by code unit, numbers in ES form. */
const CANONICAL_BODY =
  '{"action":"invoice.paid","actor":{"id":"app-billing","kind":"app"},' +
  '"attributes":{"amount":12.5,"currency":"EUR","note":null,"refunded":false,"z-last":1e+21},' +
  '"correlation_id":"req-1","occurred_at":"2026-11-25T10:00:00.000Z","outcome":"success",' +
  '"sequence_id":1,"target":"invoice-42","tenant":"acme"}';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the audit hash rule', () => {
  it('is SHA-256 of the previous hash followed by the canonical JSON of the record', () => {
    expect(auditRecordHash(AUDIT_GENESIS_HASH, 1, event)).toBe(sha256(AUDIT_GENESIS_HASH + CANONICAL_BODY));
  });

  it('does not depend on the order the attributes were written in', () => {
    const reordered = {
      ...event,
      attributes: { 'z-last': 1e21, note: null, refunded: false, amount: 12.5, currency: 'EUR' },
    };

    expect(auditRecordHash(AUDIT_GENESIS_HASH, 1, reordered)).toBe(
      auditRecordHash(AUDIT_GENESIS_HASH, 1, event),
    );
  });

  it('changes with the previous hash, the sequence id and every field', () => {
    const base = auditRecordHash(AUDIT_GENESIS_HASH, 1, event);
    const variants = [
      auditRecordHash('1'.repeat(64), 1, event),
      auditRecordHash(AUDIT_GENESIS_HASH, 2, event),
      auditRecordHash(AUDIT_GENESIS_HASH, 1, { ...event, tenant: null }),
      auditRecordHash(AUDIT_GENESIS_HASH, 1, { ...event, actorKind: 'user' }),
      auditRecordHash(AUDIT_GENESIS_HASH, 1, { ...event, outcome: 'denied' }),
      auditRecordHash(AUDIT_GENESIS_HASH, 1, { ...event, occurredAt: new Date('2026-11-25T10:00:00.001Z') }),
      auditRecordHash(AUDIT_GENESIS_HASH, 1, {
        ...event,
        attributes: { ...event.attributes, amount: 12.51 },
      }),
    ];

    for (const variant of variants) expect(variant).not.toBe(base);
  });
});

describe('verifyAuditRecords', () => {
  const genesis = { lastSequenceId: 0, lastHash: AUDIT_GENESIS_HASH };
  const chain = () => chainAuditRecords(genesis, [event, { ...event, target: 'invoice-43' }, event]);

  it('accepts a chain as appended and ends on its last record', () => {
    const records = chain();

    expect(verifyAuditRecords(genesis, records)).toEqual({
      valid: true,
      lastSequenceId: 3,
      lastHash: records[2].recordHash,
    });
  });

  it('names a record whose content was edited', () => {
    const records = chain();
    records[1] = { ...records[1], target: 'invoice-99' };

    expect(verifyAuditRecords(genesis, records)).toEqual({
      valid: false,
      sequenceId: 2,
      problem: 'record_hash_mismatch',
    });
  });

  it('names the record after one whose hash was rewritten to match an edit', () => {
    const records = chain();
    const edited = { ...records[1], target: 'invoice-99' };
    records[1] = { ...edited, recordHash: auditRecordHash(edited.previousHash, 2, edited) };

    expect(verifyAuditRecords(genesis, records)).toEqual({
      valid: false,
      sequenceId: 3,
      problem: 'previous_hash_mismatch',
    });
  });

  it('names the missing sequence id when a record was removed', () => {
    const records = chain();
    records.splice(1, 1);

    expect(verifyAuditRecords(genesis, records)).toEqual({
      valid: false,
      sequenceId: 2,
      problem: 'sequence_gap',
    });
  });
});
