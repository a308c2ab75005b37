import { Module } from '@nestjs/common';
import { AdminApiGuard } from '../admin/admin-api.guard';
import { InternalGuard } from '../internal/internal.guard';
import { AdminAuditController } from './admin-audit.controller';
import { InternalAuditController } from './internal-audit.controller';

/** The audit log: admin reading and verification (`/api/v1/audit/*`), internal emit and tenant reads. */
@Module({
  controllers: [AdminAuditController, InternalAuditController],
  providers: [AdminApiGuard, InternalGuard],
})
export class AuditModule {}
