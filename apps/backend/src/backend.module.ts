import { type DynamicModule, Module } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { AppsController, ScopesController, TokenEventsController } from './apps/apps.controller';
import { AppsService } from './apps/apps.service';
import { AdminGuard } from './auth/admin.guard';
import { BearerGuard } from './auth/bearer.guard';
import { ControlPlaneClient } from './clients/control-plane.client';
import { SidecarClient } from './clients/sidecar.client';
import { PLATFORM_CONFIG } from './config';
import { HealthController } from './health/health.controller';
import { HealthService } from './health/health.service';
import { MeController } from './me/me.controller';
import { MetadataController } from './metadata/metadata.controller';
import { OAuthController } from './oauth/oauth.controller';
import { OAuthService } from './oauth/oauth.service';

/**
 * The backend: public routes only (no internal route is served here). It holds no database;
 * the control plane owns state and the sidecar judges tokens.
 */
@Module({})
export class BackendModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      module: BackendModule,
      controllers: [
        OAuthController,
        AppsController,
        ScopesController,
        TokenEventsController,
        MeController,
        HealthController,
        MetadataController,
      ],
      providers: [
        { provide: PLATFORM_CONFIG, useValue: config },
        {
          provide: ControlPlaneClient,
          useFactory: () => new ControlPlaneClient(config.controlPlaneUrl, config.internalToken),
        },
        {
          provide: SidecarClient,
          useFactory: () => new SidecarClient(config.sidecarGrpcAddress, config.internalToken),
        },
        OAuthService,
        AppsService,
        HealthService,
        BearerGuard,
        AdminGuard,
      ],
    };
  }
}
