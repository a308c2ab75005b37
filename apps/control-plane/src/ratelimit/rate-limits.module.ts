import { Module } from '@nestjs/common';
import {
  AuditTrail,
  type Clock,
  DefinitionRegistry,
  RATE_LIMIT_RULES,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { AdminApiGuard } from '../admin/admin-api.guard';
import { InternalGuard } from '../internal/internal.guard';
import { CLOCK, STORES, TRANSACTOR } from '../platform/tokens';
import { AdminRateLimitsController } from './admin-rate-limits.controller';
import { DefinitionsController } from './definitions.controller';

/** Rate limit rules (`/api/v1/tenants/{tenant}/rate-limits`) and the definitions feed sidecars follow. */
@Module({
  controllers: [AdminRateLimitsController, DefinitionsController],
  providers: [
    AdminApiGuard,
    InternalGuard,
    {
      provide: DefinitionRegistry,
      useFactory: (stores: Stores, transactor: Transactor, trail: AuditTrail, clock: Clock) =>
        new DefinitionRegistry(RATE_LIMIT_RULES, stores.definitions, transactor, trail, clock),
      inject: [STORES, TRANSACTOR, AuditTrail, CLOCK],
    },
  ],
})
export class RateLimitsModule {}
