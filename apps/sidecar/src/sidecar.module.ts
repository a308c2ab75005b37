import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { CLOCK } from './clock';
import { systemClock, type Clock } from '@platform/domain';
import { SIDECAR_CONFIG, type SidecarConfig } from './config/sidecar-config';
import { ControlPlaneApi } from './control-plane/control-plane-api';
import { HttpControlPlaneClient } from './control-plane/http-control-plane.client';
import { PolicyDecider } from './authorization/policy-decider';
import { AuthGrpcService } from './grpc/auth.grpc-service';
import { GrpcServerHost } from './grpc/grpc-server.host';
import { InternalTokenVerifier } from './grpc/internal-token.verifier';
import { InvalidationStreams } from './grpc/invalidation-streams';
import { PolicyGrpcService } from './grpc/policy.grpc-service';
import { TenantGrpcService } from './grpc/tenant.grpc-service';
import { TokenClaimsReader } from './grpc/token-claims.reader';
import { HealthHttpServer } from './health/health-http.server';
import { Readiness } from './health/readiness';
import { KeyCache } from './keys/key-cache';
import { DenyList } from './revocation/deny-list';
import { RevocationSync } from './revocation/revocation-sync';
import { TokenValidator } from './validation/token-validator';

export interface SidecarModuleOptions {
  config: SidecarConfig;
  /** Replaces the HTTP client of the control plane (a test double of `ControlPlaneApi`). */
  controlPlane?: ControlPlaneApi;
  clock?: Clock;
}

/** The sidecar process: gRPC Auth, Policy and Tenant services on loopback plus an HTTP health endpoint. */
@Module({})
export class SidecarModule {
  static forRoot({ config, controlPlane, clock = systemClock }: SidecarModuleOptions): DynamicModule {
    const controlPlaneProvider: Provider = controlPlane
      ? { provide: ControlPlaneApi, useValue: controlPlane }
      : { provide: ControlPlaneApi, useClass: HttpControlPlaneClient };
    return {
      module: SidecarModule,
      providers: [
        { provide: SIDECAR_CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
        controlPlaneProvider,
        Readiness,
        DenyList,
        KeyCache,
        RevocationSync,
        TokenValidator,
        InternalTokenVerifier,
        TokenClaimsReader,
        PolicyDecider,
        InvalidationStreams,
        AuthGrpcService,
        PolicyGrpcService,
        TenantGrpcService,
        GrpcServerHost,
        HealthHttpServer,
      ],
    };
  }
}
