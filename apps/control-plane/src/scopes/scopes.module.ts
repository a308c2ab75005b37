import { Module } from '@nestjs/common';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { AdminScopesController } from './admin-scopes.controller';

/** Scope definitions (`/api/v1/scopes`): admin routes. */
@Module({ controllers: [AdminScopesController], providers: [AdminApiGuard] })
export class ScopesModule {}
