import { Module } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import {
  AuditTrail,
  ClientAuthenticator,
  DeviceAuthorizationEndpoint,
  DeviceVerification,
  ScopeRegistry,
  SessionService,
  type Clock,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { InternalGuard } from '../platform/internal.guard';
import { CLOCK, PLATFORM_CONFIG, STORES, TRANSACTOR } from '../platform/tokens';
import { InternalDeviceController } from './internal-device.controller';

/**
 * The device flow's internal routes (`/internal/v1/oauth/device_authorization`,
 * `/internal/v1/device/*`), behind the internal token; its grant is the token endpoint's
 * (platform.module.ts).
 */
@Module({
  controllers: [InternalDeviceController],
  providers: [
    InternalGuard,
    {
      provide: DeviceAuthorizationEndpoint,
      useFactory: (
        authenticator: ClientAuthenticator,
        transactor: Transactor,
        config: PlatformConfig,
        clock: Clock,
      ) => new DeviceAuthorizationEndpoint(authenticator, transactor, config.issuer, clock),
      inject: [ClientAuthenticator, TRANSACTOR, PLATFORM_CONFIG, CLOCK],
    },
    {
      provide: DeviceVerification,
      useFactory: (
        stores: Stores,
        scopes: ScopeRegistry,
        sessions: SessionService,
        transactor: Transactor,
        trail: AuditTrail,
        clock: Clock,
      ) =>
        new DeviceVerification(
          stores.applications,
          stores.deviceAuthorizations,
          scopes,
          sessions,
          transactor,
          trail,
          clock,
        ),
      inject: [STORES, ScopeRegistry, SessionService, TRANSACTOR, AuditTrail, CLOCK],
    },
  ],
})
export class DeviceModule {}
