/**
 * The audit log: one hash chain of records, each naming who did what to which thing, in which
 * tenant, with what outcome (spec, "Events" item 3; docs/audit.md).
 */

/** Who acted: a user, an application (its client_id), or the platform itself. */
export type AuditActorKind = 'user' | 'app' | 'platform';
export const AUDIT_ACTOR_KINDS: readonly AuditActorKind[] = ['user', 'app', 'platform'];

export type AuditOutcome = 'success' | 'failure' | 'denied';
export const AUDIT_OUTCOMES: readonly AuditOutcome[] = ['success', 'failure', 'denied'];

/** Free-form context of a record: flat, JSON-safe values only (they are hashed canonically). */
export type AuditAttributes = Record<string, string | number | boolean | null>;

export interface AuditEventInput {
  /** The tenant the action happened in; null for platform-wide actions. */
  tenant: string | null;
  actorKind: AuditActorKind;
  actorId: string;
  /** Dotted, lower case: `app.registered`, `token.revoked`, `invoice.paid`. */
  action: string;
  /** What the action touched (a client_id, a user id, a kid...), when it touched one thing. */
  target: string | null;
  outcome: AuditOutcome;
  occurredAt: Date;
  /** The correlation id of the request that caused it, when there was one. */
  correlationId: string | null;
  attributes: AuditAttributes;
}

export interface AuditRecord extends AuditEventInput {
  /** 1, 2, 3... with no gap, in the order the records were committed. */
  sequenceId: number;
  previousHash: string;
  recordHash: string;
}

/** Filters of the audit query; every one optional, combined with AND. Ascending by sequence. */
export interface AuditQuery {
  /** Exclusive: records after this sequence id (the cursor). */
  after?: number;
  /** Inclusive upper bound on the sequence id (verification reads ranges). */
  through?: number;
  limit: number;
  tenant?: string;
  actorId?: string;
  action?: string;
  target?: string;
  /** Inclusive. */
  since?: Date;
  /** Exclusive. */
  until?: Date;
}

/** The newest record's sequence id and hash: (0, the genesis hash) for an empty log. */
export interface AuditChainHead {
  lastSequenceId: number;
  lastHash: string;
}

/** A signed tree head over records 1..treeSize (docs/audit.md, "Checkpoints"). */
export interface AuditCheckpoint {
  treeSize: number;
  /** Hex RFC 6962 Merkle tree hash over the records' `record_hash` bytes. */
  rootHash: string;
  /** Compact JWS (RS256, the platform's signing key) of the tree head. */
  signed: string;
  createdAt: Date;
}

/** Records `after + 1` to `through`, at most `limit` of them. */
export interface AuditRange {
  after: number;
  through: number;
  limit: number;
}

export interface AuditStore {
  /**
   * Continues the chain with `events`, in order, inside the caller's transaction: the records
   * commit with the change they describe, or not at all. Concurrent writers (other transactions,
   * other replicas) wait for one another, so sequence ids stay gap-free and the chain unbroken.
   */
  appendAuditRecords(events: AuditEventInput[]): Promise<AuditRecord[]>;
  listAuditRecords(query: AuditQuery): Promise<AuditRecord[]>;
  /**
   * The `record_hash` of the records of `range`, in order: all that
   * building the Merkle tree needs, without reading and decoding whole records.
   */
  listAuditRecordHashes(range: AuditRange): Promise<string[]>;
  /** The records with these sequence ids, in sequence order; ids with no record are left out. */
  findAuditRecords(sequenceIds: number[]): Promise<AuditRecord[]>;
  auditChainHead(): Promise<AuditChainHead>;
  /** 'duplicate' when a checkpoint of that size exists (another replica made it). */
  insertAuditCheckpoint(checkpoint: AuditCheckpoint): Promise<'created' | 'duplicate'>;
  /** The checkpoint of the largest tree. */
  latestAuditCheckpoint(): Promise<AuditCheckpoint | null>;
}
