import { Module } from '@nestjs/common';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { AdminServiceAccountsController } from './admin-service-accounts.controller';

/** Service accounts (`/api/v1/apps/register`, `.../credentials/rotate`): admin routes. */
@Module({ controllers: [AdminServiceAccountsController], providers: [AdminApiGuard] })
export class ServiceAccountsModule {}
