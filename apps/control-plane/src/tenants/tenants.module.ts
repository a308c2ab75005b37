import { Module } from '@nestjs/common';
import { InternalGuard } from '../platform/internal.guard';
import { InternalTenantUsersController } from './internal-tenant-users.controller';

/** Internal routes of tenant user administration (`/internal/v1/tenants/*`). */
@Module({ controllers: [InternalTenantUsersController], providers: [InternalGuard] })
export class TenantsModule {}
