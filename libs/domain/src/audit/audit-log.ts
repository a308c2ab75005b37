import { AUDIT_GENESIS_HASH, verifyAuditRecords, type AuditChainBreak } from './audit-chain';
import type { AuditChainHead, AuditStore } from './audit-record';

/** Records read per query while verifying: bounded memory whatever the log's size. */
const VERIFY_PAGE_SIZE = 1_000;

export interface AuditVerification {
  valid: boolean;
  /** Records whose links and hashes were checked. */
  checked: number;
  /** The range asked for, clamped to the log: 1 and the newest sequence id by default. */
  from: number;
  through: number;
  /** The first record that does not verify, and why; null when every record did. */
  firstInvalid: { sequenceId: number; problem: AuditChainBreak } | null;
}

/**
 * Verifies the audit chain, whole or a range, page by page. A range starts from the stored
 * hash of the record before it; the whole log also has to end where the chain head says, so a
 * record removed from the end is found too.
 */
export class AuditLog {
  constructor(
    private readonly store: Pick<AuditStore, 'listAuditRecords' | 'findAuditRecord' | 'auditChainHead'>,
  ) {}

  async verify(range: { from?: number; through?: number } = {}): Promise<AuditVerification> {
    const head = await this.store.auditChainHead();
    const from = Math.max(1, range.from ?? 1);
    const through = Math.min(range.through ?? head.lastSequenceId, head.lastSequenceId);
    const result = (checked: number, firstInvalid: AuditVerification['firstInvalid']): AuditVerification => ({
      valid: firstInvalid === null,
      checked,
      from,
      through,
      firstInvalid,
    });
    if (from > through) return result(0, null);

    let position: AuditChainHead = { lastSequenceId: 0, lastHash: AUDIT_GENESIS_HASH };
    if (from > 1) {
      const before = await this.store.findAuditRecord(from - 1);
      if (!before) return result(0, { sequenceId: from - 1, problem: 'sequence_gap' });
      position = { lastSequenceId: before.sequenceId, lastHash: before.recordHash };
    }
    let checked = 0;
    while (position.lastSequenceId < through) {
      const page = await this.store.listAuditRecords({
        after: position.lastSequenceId,
        through,
        limit: VERIFY_PAGE_SIZE,
      });
      if (page.length === 0) {
        return result(checked, { sequenceId: position.lastSequenceId + 1, problem: 'sequence_gap' });
      }
      const check = verifyAuditRecords(position, page);
      if (!check.valid) {
        return result(checked + page.findIndex((r) => r.sequenceId === check.sequenceId), {
          sequenceId: check.sequenceId,
          problem: check.problem,
        });
      }
      checked += page.length;
      position = check;
    }
    if (range.through === undefined && position.lastHash !== head.lastHash) {
      return result(checked, { sequenceId: head.lastSequenceId, problem: 'record_hash_mismatch' });
    }
    return result(checked, null);
  }
}
