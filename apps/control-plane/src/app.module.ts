import { Module } from '@nestjs/common';
import { RouteAuthorityModule } from '@platform/http';
import { TracingShutdown } from '@platform/telemetry';
import { AppLoginModule } from './app-login/app-login.module';
import { AppsModule } from './apps/apps.module';
import { AuditModule } from './audit/audit.module';
import { DeviceModule } from './device/device.module';
import { HealthModule } from './health/health.module';
import { KeysModule } from './keys/keys.module';
import { LogoutModule } from './logout/logout.module';
import { OAuthModule } from './oauth/oauth.module';
import { BootstrapService } from './platform/bootstrap.service';
import { PlatformModule } from './platform/platform.module';
import { RetentionSweepLoop } from './platform/retention-sweep';
import { FlagsModule } from './flags/flags.module';
import { PlansModule } from './plans/plans.module';
import { FederationModule } from './federation/federation.module';
import { SamlModule } from './saml/saml.module';
import { MaskingModule } from './masking/masking.module';
import { RateLimitsModule } from './rate-limits/rate-limits.module';
import { ScimModule } from './scim/scim.module';
import { ScopesModule } from './scopes/scopes.module';
import { SecretsModule } from './secrets/secrets.module';
import { ServiceAccountsModule } from './service-accounts/service-accounts.module';
import { JobsModule } from './jobs/jobs.module';
import { TenantsModule } from './tenants/tenants.module';
import { TokenEventsModule } from './token-events/token-events.module';
import { UserFlowModule } from './user-flow/user-flow.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({
  imports: [
    PlatformModule,
    RouteAuthorityModule,
    HealthModule,
    KeysModule,
    AppsModule,
    ScopesModule,
    ServiceAccountsModule,
    TokenEventsModule,
    OAuthModule,
    UserFlowModule,
    LogoutModule,
    DeviceModule,
    AppLoginModule,
    TenantsModule,
    AuditModule,
    WebhooksModule,
    ScimModule,
    RateLimitsModule,
    FlagsModule,
    PlansModule,
    FederationModule,
    SamlModule,
    MaskingModule,
    SecretsModule,
    JobsModule,
  ],
  providers: [BootstrapService, RetentionSweepLoop, TracingShutdown],
})
export class ControlPlaneModule {}
