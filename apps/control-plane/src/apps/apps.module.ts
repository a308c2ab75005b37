import { Module } from '@nestjs/common';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { ApplicationsController } from './applications.controller';

/** Application registration (`/api/v1/apps`): admin routes. */
@Module({ controllers: [ApplicationsController], providers: [AdminApiGuard] })
export class AppsModule {}
