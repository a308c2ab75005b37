import {
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  ParseIntPipe,
  Post,
  Query,
} from '@nestjs/common';
import { AuditConsistencyQueryDto } from '@platform/contract';
import { AuditCheckpoints, type AuditCheckpoint } from '@platform/domain';
import { AdminRoute, PublicRoute } from '../platform/route-authority';

/** Signed checkpoints of the audit log (published) and inclusion proofs (administrators). */
@Controller('api/v1/audit')
export class AuditCheckpointsController {
  constructor(private readonly checkpoints: AuditCheckpoints) {}

  /** Public: what an outside party checks records against. */
  @Get('checkpoint')
  @PublicRoute()
  async latest() {
    const checkpoint = await this.checkpoints.latest();
    if (!checkpoint) throw new NotFoundException('no audit checkpoint yet');
    return toCheckpointResponse(checkpoint);
  }

  /** A checkpoint of the log as it is now, without waiting for the next periodic one. */
  @Post('checkpoints')
  @HttpCode(201)
  @AdminRoute()
  async create() {
    const checkpoint = await this.checkpoints.checkpoint();
    if (!checkpoint) throw new NotFoundException('the audit log is empty');
    return toCheckpointResponse(checkpoint);
  }

  @Get('consistency')
  @AdminRoute()
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

  @Get('records/:sequenceId/inclusion')
  @AdminRoute()
  async inclusion(@Param('sequenceId', ParseIntPipe) sequenceId: number) {
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
