import { Module } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  AuditTrail,
  type Clock,
  ScimProvisioning,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { InternalGuard } from '../platform/internal.guard';
import { CLOCK, PLATFORM_CONFIG, STORES, TRANSACTOR } from '../platform/tokens';
import { InternalScimController } from './internal-scim.controller';

/** SCIM 2.0 provisioning of users and groups (`/internal/v1/scim/v2/*`, docs/scim.md). */
@Module({
  controllers: [InternalScimController],
  providers: [
    InternalGuard,
    {
      provide: ScimProvisioning,
      useFactory: (
        stores: Stores,
        transactor: Transactor,
        trail: AuditTrail,
        clock: Clock,
        config: PlatformConfig,
      ) =>
        new ScimProvisioning(stores, transactor, trail, clock, {
          baseUrl: `${config.issuer}/scim/v2`,
          accessTokenLifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS,
        }),
      inject: [STORES, TRANSACTOR, AuditTrail, CLOCK, PLATFORM_CONFIG],
    },
  ],
})
export class ScimModule {}
