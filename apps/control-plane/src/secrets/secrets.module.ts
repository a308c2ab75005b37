import { Module } from '@nestjs/common';
import {
  AuditLog,
  AuditTrail,
  type Clock,
  Envelope,
  SecretVault,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { InternalGuard } from '../platform/internal.guard';
import { PlatformMetering } from '../plans/platform-metering';
import { CLOCK, STORES, TRANSACTOR } from '../platform/tokens';
import { AdminSecretsController } from './admin-secrets.controller';
import { InternalSecretsController } from './internal-secrets.controller';
import { WebhooksModule } from '../webhooks/webhooks.module';

/** Tenants' secrets (docs/secrets.md): sealed by the envelope, read through the backend and the sidecars. */
@Module({
  imports: [WebhooksModule],
  controllers: [InternalSecretsController, AdminSecretsController],
  providers: [
    AdminApiGuard,
    InternalGuard,
    {
      provide: SecretVault,
      useFactory: (
        envelope: Envelope,
        stores: Stores,
        transactor: Transactor,
        trail: AuditTrail,
        audit: AuditLog,
        clock: Clock,
        meter: PlatformMetering,
      ) =>
        new SecretVault(
          envelope,
          stores.secrets,
          transactor,
          trail,
          (event) => audit.append(event),
          clock,
          meter,
        ),
      inject: [Envelope, STORES, TRANSACTOR, AuditTrail, AuditLog, CLOCK, PlatformMetering],
    },
  ],
})
export class SecretsModule {}
