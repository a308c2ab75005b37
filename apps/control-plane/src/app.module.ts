import { Module } from '@nestjs/common';
import { RouteAuthorityModule } from '@platform/http';
import { TracingShutdown } from '@platform/telemetry';
import { AdminModule } from './admin/admin.module';
import { AppLoginModule } from './app-login/app-login.module';
import { AuditModule } from './audit/audit.module';
import { InternalModule } from './internal/internal.module';
import { BootstrapService } from './platform/bootstrap.service';
import { PlatformModule } from './platform/platform.module';
import { RetentionSweepLoop } from './platform/retention-sweep';
import { PublicModule } from './public/public.module';
import { FlagsModule } from './flags/flags.module';
import { MaskingModule } from './masking/masking.module';
import { RateLimitsModule } from './ratelimit/rate-limits.module';
import { ScimModule } from './scim/scim.module';
import { SecretsModule } from './secrets/secrets.module';
import { JobsModule } from './jobs/jobs.module';
import { TenantsModule } from './tenants/tenants.module';
import { UserFlowModule } from './user-flow/user-flow.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({
  imports: [
    PlatformModule,
    RouteAuthorityModule,
    PublicModule,
    AdminModule,
    InternalModule,
    UserFlowModule,
    AppLoginModule,
    TenantsModule,
    AuditModule,
    WebhooksModule,
    ScimModule,
    RateLimitsModule,
    FlagsModule,
    MaskingModule,
    SecretsModule,
    JobsModule,
  ],
  providers: [BootstrapService, RetentionSweepLoop, TracingShutdown],
})
export class ControlPlaneModule {}
