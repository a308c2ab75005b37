import { Module } from '@nestjs/common';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { InternalGuard } from '../platform/internal.guard';
import { AdminPlansController } from './admin-plans.controller';
import { TenantQuotasController } from './tenant-quotas.controller';

/**
 * Plans, subscriptions, entitlements and quota usage (`/api/v1/plans`,
 * `/api/v1/tenants/{tenant}/subscription`, `/internal/v1/tenants/{tenant}/{entitlements,quotas}`,
 * `/internal/v1/quotas/consume`); the parts they use come from the platform module (QUOTA_PROVIDERS).
 */
@Module({
  controllers: [AdminPlansController, TenantQuotasController],
  providers: [AdminApiGuard, InternalGuard],
})
export class PlansModule {}
