import { Module } from '@nestjs/common';
import { AdminApiGuard } from './admin-api.guard';
import { AdminScopesController } from './admin-scopes.controller';
import { AdminServiceAccountsController } from './admin-service-accounts.controller';
import { AdminTokenEventsController } from './admin-token-events.controller';
import { ApplicationsController } from './applications.controller';
import { SigningKeysController } from './signing-keys.controller';

/** Admin routes (`/api/v1/*`): every one needs an admin Bearer token. */
@Module({
  controllers: [
    AdminServiceAccountsController,
    ApplicationsController,
    AdminScopesController,
    AdminTokenEventsController,
    SigningKeysController,
  ],
  providers: [AdminApiGuard],
})
export class AdminModule {}
