import type { Clock } from '../clock';
import { DomainError, notFound, validationFailed } from '../errors';
import type { SigningKeyRing } from '../keys/signing-key-ring';
import { signRs256 } from '../tokens/jws';
import type { AuditCheckpoint, AuditStore } from './audit-record';
import { consistencyProof, inclusionPath, merkleLeafHash, MerkleFrontier } from './merkle';

/** Records read per query while building a tree. */
const PAGE_SIZE = 1_000;
export const AUDIT_CHECKPOINT_TYP = 'audit-checkpoint+jwt';

export interface AuditConsistencyProof {
  /** The earlier tree size the caller holds a checkpoint of. */
  from: number;
  /** The latest checkpoint's tree size. */
  to: number;
  proof: string[];
  rootHash: string;
  checkpoint: string;
}

export interface AuditInclusionProof {
  sequenceId: number;
  treeSize: number;
  /** 0-based: the record's sequence id minus one. */
  leafIndex: number;
  /** Hex; the leaf is the record's `record_hash` as 32 bytes. */
  leafHash: string;
  auditPath: string[];
  rootHash: string;
  /** The signed checkpoint whose root the path leads to. */
  checkpoint: string;
}

/**
 * Signed checkpoints of the audit log (RFC 6962 tree heads over the records' hashes, signed
 * with the platform's key) and inclusion proofs against them, so anyone holding a record and a
 * published checkpoint can check the record is in the log without reading the rest of it.
 */
export class AuditCheckpoints {
  /** The tree as far as this process has read the log: a new checkpoint reads only what came since. */
  private frontier = new MerkleFrontier();
  /** One growth of the frontier at a time (the periodic checkpoint and an admin's may overlap). */
  private growing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: AuditStore,
    private readonly keys: Pick<SigningKeyRing, 'signingKey'>,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  latest(): Promise<AuditCheckpoint | null> {
    return this.store.latestAuditCheckpoint();
  }

  /** A checkpoint of the whole log as it is now (the stored one when the log has not grown). */
  async checkpoint(): Promise<AuditCheckpoint | null> {
    const { lastSequenceId } = await this.store.auditChainHead();
    const latest = await this.store.latestAuditCheckpoint();
    if (lastSequenceId === 0 || latest?.treeSize === lastSequenceId) return latest;
    const rootHash = (await this.rootOf(lastSequenceId)).toString('hex');
    const createdAt = this.clock.now();
    const { kid, privateKey } = this.keys.signingKey();
    const signed = await signRs256(
      { alg: 'RS256', typ: AUDIT_CHECKPOINT_TYP, kid },
      {
        iss: this.issuer,
        tree_size: lastSequenceId,
        root_hash: rootHash,
        iat: Math.floor(createdAt.getTime() / 1000),
      },
      privateKey,
    );
    const checkpoint = { treeSize: lastSequenceId, rootHash, signed, createdAt };
    // Another replica may have made the same one meanwhile: either is the log's.
    await this.store.insertAuditCheckpoint(checkpoint);
    return checkpoint;
  }

  /** The audit path of record `sequenceId` to the latest checkpoint's root. */
  async inclusionProof(sequenceId: number): Promise<AuditInclusionProof> {
    const checkpoint = await this.store.latestAuditCheckpoint();
    if (!checkpoint) throw new DomainError('conflict', 'no checkpoint yet: create one first');
    if (sequenceId < 1 || sequenceId > checkpoint.treeSize) {
      throw notFound(`record ${sequenceId} in the checkpoint of ${checkpoint.treeSize} records`);
    }
    const leaves = await this.leaves(checkpoint.treeSize);
    return {
      sequenceId,
      treeSize: checkpoint.treeSize,
      leafIndex: sequenceId - 1,
      leafHash: leaves[sequenceId - 1].toString('hex'),
      auditPath: inclusionPath(leaves, sequenceId - 1).map((hash) => hash.toString('hex')),
      rootHash: checkpoint.rootHash,
      checkpoint: checkpoint.signed,
    };
  }

  /**
   * The proof that the latest checkpoint's tree extends the tree of the first `from` records
   * (RFC 6962 section 2.1.2): with it and the root it holds for `from`, an auditor checks the
   * log was only appended to.
   */
  async consistencyProof(from: number): Promise<AuditConsistencyProof> {
    const checkpoint = await this.store.latestAuditCheckpoint();
    if (!checkpoint) throw new DomainError('conflict', 'no checkpoint yet: create one first');
    if (!Number.isSafeInteger(from) || from < 1 || from > checkpoint.treeSize) {
      throw validationFailed(`from must be a tree size from 1 to ${checkpoint.treeSize}`);
    }
    const leaves = await this.leaves(checkpoint.treeSize);
    return {
      from,
      to: checkpoint.treeSize,
      proof: consistencyProof(leaves, from).map((hash) => hash.toString('hex')),
      rootHash: checkpoint.rootHash,
      checkpoint: checkpoint.signed,
    };
  }

  /** MTH of records 1..size, reading only the records the frontier has not seen. */
  private rootOf(size: number): Promise<Buffer> {
    const grown = this.growing.then(async () => {
      if (this.frontier.size > size) this.frontier = new MerkleFrontier();
      while (this.frontier.size < size) {
        for (const leaf of await this.leafPage(this.frontier.size, size)) this.frontier.append(leaf);
      }
      return this.frontier.root();
    });
    this.growing = grown.catch(() => (this.frontier = new MerkleFrontier()));
    return grown;
  }

  /** The leaf hashes of records 1..size, read page by page. */
  private async leaves(size: number): Promise<Buffer[]> {
    const leaves: Buffer[] = [];
    while (leaves.length < size) leaves.push(...(await this.leafPage(leaves.length, size)));
    return leaves;
  }

  /** The leaf hashes of the next page of records after `after`, up to `through`. */
  private async leafPage(after: number, through: number): Promise<Buffer[]> {
    const hashes = await this.store.listAuditRecordHashes({ after, through, limit: PAGE_SIZE });
    if (hashes.length === 0) throw new Error(`audit record ${after + 1} is missing`);
    return hashes.map((hash) => merkleLeafHash(Buffer.from(hash, 'hex')));
  }
}
