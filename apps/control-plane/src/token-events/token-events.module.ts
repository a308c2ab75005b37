import { Module } from '@nestjs/common';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { AdminTokenEventsController } from './admin-token-events.controller';

/** The token event log, paged or followed live: admin routes. */
@Module({ controllers: [AdminTokenEventsController], providers: [AdminApiGuard] })
export class TokenEventsModule {}
