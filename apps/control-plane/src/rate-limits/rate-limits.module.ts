import { Module } from '@nestjs/common';
import { RATE_LIMIT_RULES } from '@platform/domain';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { InternalGuard } from '../platform/internal.guard';
import { definitionRegistryProvider } from '../platform/definition-registry.provider';
import { AdminRateLimitsController } from './admin-rate-limits.controller';
import { DefinitionsController } from './definitions.controller';

/** Rate limit rules (`/api/v1/tenants/{tenant}/rate-limits`) and the definitions feed sidecars follow. */
@Module({
  controllers: [AdminRateLimitsController, DefinitionsController],
  providers: [AdminApiGuard, InternalGuard, definitionRegistryProvider(RATE_LIMIT_RULES)],
})
export class RateLimitsModule {}
