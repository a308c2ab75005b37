import { Module } from '@nestjs/common';
import { InternalGuard } from '../platform/internal.guard';
import { ImpersonationPolicyController } from './impersonation-policy.controller';
import { InternalTenantUsersController } from './internal-tenant-users.controller';

/** Internal routes of tenant user administration and impersonation policy (`/internal/v1/tenants/*`). */
@Module({
  controllers: [InternalTenantUsersController, ImpersonationPolicyController],
  providers: [InternalGuard],
})
export class TenantsModule {}
