import { Module } from '@nestjs/common';
import {
  ApplicationsController,
  ScopesController,
  ServiceAccountsController,
  SigningKeysController,
  TokenEventsController,
} from './admin.controllers';
import { AdminGuard } from './admin.guard';

/** Admin routes (`/api/v1/*`): every one needs an admin Bearer token. */
@Module({
  controllers: [
    ServiceAccountsController,
    ApplicationsController,
    ScopesController,
    TokenEventsController,
    SigningKeysController,
  ],
  providers: [AdminGuard],
})
export class AdminModule {}
