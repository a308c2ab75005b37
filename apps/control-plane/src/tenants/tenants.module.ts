import { Module } from '@nestjs/common';
import { InternalGuard } from '../internal/internal.guard';
import { TenantUsersController } from './tenant-users.controller';

/** Internal routes of tenant user administration (`/internal/v1/tenants/*`). */
@Module({ controllers: [TenantUsersController], providers: [InternalGuard] })
export class TenantsModule {}
