import { Module } from '@nestjs/common';
import { FLAG_DEFINITIONS } from '@platform/domain';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { definitionRegistryProvider } from '../platform/definition-registry.provider';
import { AdminFlagsController } from './admin-flags.controller';

/** Feature flag definitions (`/api/v1/tenants/{tenant}/flags`), followed by every sidecar. */
@Module({
  controllers: [AdminFlagsController],
  providers: [AdminApiGuard, definitionRegistryProvider(FLAG_DEFINITIONS)],
})
export class FlagsModule {}
