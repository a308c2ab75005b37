import { Module } from '@nestjs/common';
import { MASKING_SETTINGS } from '@platform/domain';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { definitionRegistryProvider } from '../platform/definition-registry.provider';
import { AdminMaskingController } from './admin-masking.controller';

/** Masking settings (`/api/v1/tenants/{tenant}/masking`), followed by every sidecar. */
@Module({
  controllers: [AdminMaskingController],
  providers: [AdminApiGuard, definitionRegistryProvider(MASKING_SETTINGS)],
})
export class MaskingModule {}
