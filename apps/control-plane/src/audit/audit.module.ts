import { Module } from '@nestjs/common';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { InternalGuard } from '../platform/internal.guard';
import { AdminAuditController } from './admin-audit.controller';
import { AuditCheckpointsController } from './audit-checkpoints.controller';
import { InternalAuditController } from './internal-audit.controller';
import { InternalRefusalsController } from './internal-refusals.controller';

/**
 * The audit log: admin reading, verification and inclusion proofs, the published checkpoint
 * (`/api/v1/audit/*`), internal emit and tenant reads, the sidecars' cross-tenant refusals. The periodic checkpoint is a chore of
 * BootstrapService.
 */
@Module({
  controllers: [
    AdminAuditController,
    InternalAuditController,
    InternalRefusalsController,
    AuditCheckpointsController,
  ],
  providers: [AdminApiGuard, InternalGuard],
})
export class AuditModule {}
