import { Module } from '@nestjs/common';
import {
  AuditTrail,
  type Clock,
  DefinitionRegistry,
  FLAG_DEFINITIONS,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { AdminApiGuard } from '../admin/admin-api.guard';
import { CLOCK, STORES, TRANSACTOR } from '../platform/tokens';
import { AdminFlagsController } from './admin-flags.controller';

/** Feature flag definitions (`/api/v1/tenants/{tenant}/flags`), followed by every sidecar. */
@Module({
  controllers: [AdminFlagsController],
  providers: [
    AdminApiGuard,
    {
      provide: DefinitionRegistry,
      useFactory: (stores: Stores, transactor: Transactor, trail: AuditTrail, clock: Clock) =>
        new DefinitionRegistry(FLAG_DEFINITIONS, stores.definitions, transactor, trail, clock),
      inject: [STORES, TRANSACTOR, AuditTrail, CLOCK],
    },
  ],
})
export class FlagsModule {}
