import { FlagGrpcController } from './grpc/flag.grpc-controller';
import { JobGrpcController } from './grpc/job.grpc-controller';
import { SecretGrpcController } from './grpc/secret.grpc-controller';
import { TenantFlags } from './flags/tenant-flags';
import { EntitlementGrpcController } from './grpc/entitlement.grpc-controller';
import { QuotaGrpcController } from './grpc/quota.grpc-controller';
import { QuotaCounting } from './plans/quota-counting';
import { TenantPlans } from './plans/tenant-plans';
import { RateLimitGrpcController } from './grpc/ratelimit.grpc-controller';
import { DefinitionSync } from './definitions/definition-sync';
import { RateLimitChecker } from './ratelimit/rate-limit-checker';
import { SidecarCounters } from './ratelimit/sidecar-counters';
import { AuditRecorder } from './audit/audit-recorder';
import { MaskingGrpcController } from './grpc/masking.grpc-controller';
import { TenantMasking } from './masking/tenant-masking';
import { TracingShutdown } from '@platform/telemetry';
import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CLOCK } from './clock';
import { systemClock, type Clock } from '@platform/domain';
import { SIDECAR_CONFIG, type SidecarConfig } from './config/sidecar-config';
import { ControlPlaneApi } from './control-plane/control-plane-api';
import { HttpControlPlaneClient } from './control-plane/http-control-plane.client';
import { PolicyDecider } from './authorization/policy-decider';
import { TokenAuthorizer } from './authorization/token-authorizer';
import { CrossTenantRefusalReporter } from './authorization/cross-tenant-reporter';
import { AuditGrpcController } from './grpc/audit.grpc-controller';
import { AuthGrpcController } from './grpc/auth.grpc-controller';
import { GrpcStatusFilter } from './grpc/grpc-status.filter';
import { InternalTokenVerifier } from './grpc/internal-token.verifier';
import { InvalidationStreams } from './grpc/invalidation-streams';
import { PolicyGrpcController } from './grpc/policy.grpc-controller';
import { ServingStatus } from './grpc/serving-status';
import { SidecarGrpcServer } from './grpc/sidecar-grpc.server';
import { TenantGrpcController } from './grpc/tenant.grpc-controller';
import { TokenClaimsReader } from './grpc/token-claims.reader';
import { HealthHttpServer } from './health/health-http.server';
import { Readiness } from './health/readiness';
import { KeyCache } from './keys/key-cache';
import { DenyList } from '@platform/domain';
import { measuredDenyList } from './revocation/measured-deny-list';
import { RevocationSync } from './revocation/revocation-sync';
import { streamAuthorityProvider } from './revocation/stream-authority.provider';
import { TokenValidator } from './validation/token-validator';

export interface SidecarModuleOptions {
  config: SidecarConfig;
  /** Replaces the HTTP client of the control plane (a test double of `ControlPlaneApi`). */
  controlPlane?: ControlPlaneApi;
  clock?: Clock;
}

/**
 * The sidecar process: the gRPC services of proto/platform on loopback, one controller each
 * (served by `server`, the app's transport), plus an HTTP health endpoint.
 */
@Module({})
export class SidecarModule {
  static forRoot(
    { config, controlPlane, clock = systemClock }: SidecarModuleOptions,
    server: SidecarGrpcServer,
  ): DynamicModule {
    const controlPlaneProvider: Provider = controlPlane
      ? { provide: ControlPlaneApi, useValue: controlPlane }
      : { provide: ControlPlaneApi, useClass: HttpControlPlaneClient };
    return {
      module: SidecarModule,
      controllers: [
        AuthGrpcController,
        PolicyGrpcController,
        TenantGrpcController,
        AuditGrpcController,
        MaskingGrpcController,
        RateLimitGrpcController,
        FlagGrpcController,
        SecretGrpcController,
        JobGrpcController,
        EntitlementGrpcController,
        QuotaGrpcController,
      ],
      providers: [
        TracingShutdown,
        { provide: SIDECAR_CONFIG, useValue: config },
        { provide: SidecarGrpcServer, useValue: server },
        { provide: APP_FILTER, useClass: GrpcStatusFilter },
        { provide: CLOCK, useValue: clock },
        controlPlaneProvider,
        Readiness,
        { provide: DenyList, useFactory: measuredDenyList },
        streamAuthorityProvider,
        KeyCache,
        RevocationSync,
        TokenValidator,
        SidecarCounters,
        AuditRecorder,
        InternalTokenVerifier,
        TokenClaimsReader,
        TenantMasking,
        DefinitionSync,
        RateLimitChecker,
        TenantFlags,
        TenantPlans,
        QuotaCounting,
        PolicyDecider,
        TokenAuthorizer,
        CrossTenantRefusalReporter,
        InvalidationStreams,
        ServingStatus,
        HealthHttpServer,
      ],
    };
  }
}
