import { Module } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import {
  AssertionReplays,
  AuditLog,
  AuditTrail,
  SamlAssertionValidator,
  SamlRegistry,
  SamlSignIn,
  SessionService,
  type Clock,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { InternalGuard } from '../platform/internal.guard';
import { CLOCK, PLATFORM_CONFIG, STORES, TRANSACTOR } from '../platform/tokens';
import { InternalSamlController } from './internal-saml.controller';
import { SamlIdentityProvidersController } from './saml-identity-providers.controller';

/**
 * SAML sign-in (docs/saml.md): a tenant's identity provider (`/internal/v1/tenants/{tenant}/saml/*`,
 * for the principal the backend authorized) and the sign-in's internal routes
 * (`/internal/v1/saml/*`: the AuthnRequest, the Response at the ACS). The validator and the used
 * assertions are the platform module's, which the SAML bearer grant shares.
 */
@Module({
  controllers: [SamlIdentityProvidersController, InternalSamlController],
  providers: [
    InternalGuard,
    {
      provide: SamlRegistry,
      useFactory: (stores: Stores, transactor: Transactor, trail: AuditTrail, clock: Clock) =>
        new SamlRegistry(stores, transactor, trail, clock),
      inject: [STORES, TRANSACTOR, AuditTrail, CLOCK],
    },
    {
      provide: SamlSignIn,
      useFactory: (
        stores: Stores,
        validator: SamlAssertionValidator,
        replays: AssertionReplays,
        sessions: SessionService,
        audit: AuditLog,
        trail: AuditTrail,
        config: PlatformConfig,
        clock: Clock,
      ) => new SamlSignIn(stores, validator, replays, sessions, audit, trail, config.issuer, clock),
      inject: [
        STORES,
        SamlAssertionValidator,
        AssertionReplays,
        SessionService,
        AuditLog,
        AuditTrail,
        PLATFORM_CONFIG,
        CLOCK,
      ],
    },
  ],
})
export class SamlModule {}
