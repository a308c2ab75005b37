import { Controller, NotFoundException, Param, ParseIntPipe, Query } from '@nestjs/common';
import {
  ADMIN_AUDIT_OPERATIONS,
  AUDIT_CHECKPOINT_OPERATIONS,
  AuditConsistencyQueryDto,
} from '@platform/contract';
import { AuditCheckpoints, type AuditCheckpoint } from '@platform/domain';
import { Implements } from '../platform/implements';

/** Signed checkpoints of the audit log (published) and inclusion proofs (administrators). */
@Controller()
export class AuditCheckpointsController {
  constructor(private readonly checkpoints: AuditCheckpoints) {}

  /** Public: what an outside party checks records against. */
  @Implements(AUDIT_CHECKPOINT_OPERATIONS.latest)
  async latest() {
    const checkpoint = await this.checkpoints.latest();
    if (!checkpoint) throw new NotFoundException('no audit checkpoint yet');
    return toCheckpointResponse(checkpoint);
  }

  /** A checkpoint of the log as it is now, without waiting for the next periodic one. */
  @Implements(ADMIN_AUDIT_OPERATIONS.checkpoint)
  async create() {
    const checkpoint = await this.checkpoints.checkpoint();
    if (!checkpoint) throw new NotFoundException('the audit log is empty');
    return toCheckpointResponse(checkpoint);
  }

  @Implements(ADMIN_AUDIT_OPERATIONS.consistency)
  async consistency(@Query() query: AuditConsistencyQueryDto) {
    const proof = await this.checkpoints.consistencyProof(query.from);
    return {
      from: proof.from,
      to: proof.to,
      proof: proof.proof,
      root_hash: proof.rootHash,
      checkpoint: proof.checkpoint,
    };
  }

  @Implements(ADMIN_AUDIT_OPERATIONS.inclusion)
  async inclusion(@Param('sequence_id', ParseIntPipe) sequenceId: number) {
    const proof = await this.checkpoints.inclusionProof(sequenceId);
    return {
      sequence_id: proof.sequenceId,
      tree_size: proof.treeSize,
      leaf_index: proof.leafIndex,
      leaf_hash: proof.leafHash,
      audit_path: proof.auditPath,
      root_hash: proof.rootHash,
      checkpoint: proof.checkpoint,
    };
  }
}

function toCheckpointResponse(checkpoint: AuditCheckpoint) {
  return {
    tree_size: checkpoint.treeSize,
    root_hash: checkpoint.rootHash,
    created_at: checkpoint.createdAt.toISOString(),
    signed: checkpoint.signed,
  };
}
