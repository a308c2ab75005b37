import { DomainError, validationFailed } from '../errors';
import { GroupCommit } from '../group-commit';
import type { Transactor } from '../storage';
import { isPlatformAdmin, type ActingPrincipal } from '../users/user-administration';
import { AUDIT_GENESIS_HASH, verifyAuditRecords, type AuditChainBreak } from './audit-chain';
import {
  AUDIT_OUTCOMES,
  type AuditAttributes,
  type AuditChainHead,
  type AuditEventInput,
  type AuditOutcome,
  type AuditQuery,
  type AuditRecord,
  type AuditStore,
} from './audit-record';
import { auditActorOf, type AuditTrail } from './audit-trail';

/** `resource.verb`, dotted lower case: `invoice.paid`, `job.cancelled`. */
export const AUDIT_ACTION_PATTERN = /^[a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*)+$/;
export const MAX_AUDIT_ATTRIBUTES = 50;
/** The attributes' JSON, at most: a record is evidence, not a payload store. */
export const MAX_AUDIT_ATTRIBUTES_BYTES = 8_192;

/** What a caller writes: who it is comes from its token, the hashes from the chain. */
export interface AuditEmission {
  action: string;
  target?: string | null;
  outcome?: AuditOutcome;
  occurredAt?: Date;
  attributes?: AuditAttributes;
}

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
  /** Emitted records go to the chain by group commit: one transaction, one chain lock, per batch. */
  private readonly appends: GroupCommit<AuditEventInput, AuditRecord>;

  constructor(
    private readonly store: Omit<AuditStore, 'appendAuditRecords'>,
    transactor: Transactor,
    private readonly trail: AuditTrail,
  ) {
    this.appends = new GroupCommit((events) =>
      transactor.inTransaction((stores) => stores.audit.appendAuditRecords(events)),
    );
  }

  /**
   * A record written by an application or a user (`audit.write`, already decided by the
   * sidecar's policy). The actor is the caller; a user writes into its own tenant only, unless
   * it is a platform administrator.
   */
  async emit(
    principal: ActingPrincipal,
    tenant: string | null,
    emission: AuditEmission,
  ): Promise<AuditRecord> {
    checkEmission(emission);
    assertOwnTenant(principal, tenant);
    const event = this.trail.record({
      actor: auditActorOf(principal),
      tenant,
      action: emission.action,
      target: emission.target,
      outcome: emission.outcome,
      attributes: emission.attributes,
      occurredAt: emission.occurredAt,
    });
    return this.append(event);
  }

  /** A record the platform's own rules wrote (a secret read), by the same group commit. */
  append(event: AuditEventInput): Promise<AuditRecord> {
    return this.appends.submit(event);
  }

  /** One page of records, oldest first (platform administrators: every tenant). */
  query(query: AuditQuery): Promise<AuditRecord[]> {
    return this.store.listAuditRecords(query);
  }

  /** One page of one tenant's records, for a caller of that tenant or a platform administrator. */
  queryTenant(
    principal: ActingPrincipal,
    tenant: string,
    query: Omit<AuditQuery, 'tenant'>,
  ): Promise<AuditRecord[]> {
    assertOwnTenant(principal, tenant);
    return this.store.listAuditRecords({ ...query, tenant });
  }

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
      const [before] = await this.store.findAuditRecords([from - 1]);
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

/** Users act in their own tenant; platform administrators and applications anywhere. */
function assertOwnTenant(principal: ActingPrincipal, tenant: string | null): void {
  if (principal.kind === 'user' && !isPlatformAdmin(principal) && tenant !== principal.tenant) {
    throw new DomainError('forbidden', 'a user reaches the audit records of its own tenant only');
  }
}

function checkEmission({ action, target, outcome, attributes = {} }: AuditEmission): void {
  if (action.length > 128 || !AUDIT_ACTION_PATTERN.test(action)) {
    throw validationFailed('action must be dotted lower case such as invoice.paid (at most 128 characters)');
  }
  if (target !== undefined && target !== null && (target.length === 0 || target.length > 256)) {
    throw validationFailed('target must be 1 to 256 characters');
  }
  if (outcome !== undefined && !AUDIT_OUTCOMES.includes(outcome)) {
    throw validationFailed(`outcome must be one of ${AUDIT_OUTCOMES.join(', ')}`);
  }
  const entries = Object.entries(attributes);
  if (entries.length > MAX_AUDIT_ATTRIBUTES) {
    throw validationFailed(`at most ${MAX_AUDIT_ATTRIBUTES} attributes`);
  }
  for (const [key, value] of entries) {
    const flat = value === null || ['string', 'boolean'].includes(typeof value) || Number.isFinite(value);
    if (!flat || key.length === 0 || key.length > 64) {
      throw validationFailed(
        `attribute ${JSON.stringify(key)} must be a string, finite number, boolean or null`,
      );
    }
  }
  if (Buffer.byteLength(JSON.stringify(attributes)) > MAX_AUDIT_ATTRIBUTES_BYTES) {
    throw validationFailed(`attributes must be at most ${MAX_AUDIT_ATTRIBUTES_BYTES} bytes of JSON`);
  }
}
