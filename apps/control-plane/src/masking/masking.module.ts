import { Module } from '@nestjs/common';
import {
  AuditTrail,
  type Clock,
  DefinitionRegistry,
  MASKING_SETTINGS,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { AdminApiGuard } from '../admin/admin-api.guard';
import { CLOCK, STORES, TRANSACTOR } from '../platform/tokens';
import { AdminMaskingController } from './admin-masking.controller';

/** Masking settings (`/api/v1/tenants/{tenant}/masking`), followed by every sidecar. */
@Module({
  controllers: [AdminMaskingController],
  providers: [
    AdminApiGuard,
    {
      provide: DefinitionRegistry,
      useFactory: (stores: Stores, transactor: Transactor, trail: AuditTrail, clock: Clock) =>
        new DefinitionRegistry(MASKING_SETTINGS, stores.definitions, transactor, trail, clock),
      inject: [STORES, TRANSACTOR, AuditTrail, CLOCK],
    },
  ],
})
export class MaskingModule {}
