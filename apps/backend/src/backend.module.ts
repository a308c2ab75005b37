import { TracingShutdown } from '@platform/telemetry';
import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { LiveStreamAuthority } from '@platform/domain';
import { AppsController } from './apps/apps.controller';
import { AppsHooks } from './apps/apps-hooks';
import { AdminGuard } from './auth/admin.guard';
import { AppLoginController } from './auth-family/app-login.controller';
import { AuthTokensController } from './auth-family/auth-tokens.controller';
import { BearerGuard } from './auth/bearer.guard';
import { InvalidationWatcher } from './auth/invalidation-watcher';
import { LocalRevocation } from './auth/local-revocation';
import { ValidatedTokenCache } from './auth/validated-token-cache';
import { LocalTokenVerifier } from './auth/local-token-verifier';
import { DpopResourceCheck } from './auth/dpop-resource-check';
import { AuthorizeController } from './authorize/authorize.controller';
import { AuthorizeService } from './authorize/authorize.service';
import { BrowserCookies, cookieSettings } from './browser/cookies';
import { CsrfTokens } from './browser/csrf';
import { deriveKey } from './browser/keys';
import { SealedBox } from './browser/sealed-box';
import { AppLoginClient } from './clients/app-login.client';
import { AuthorizationClient } from './clients/authorization.client';
import { ControlPlaneClient } from './clients/control-plane.client';
import { DeviceClient } from './clients/device.client';
import { DeviceAuthorizationController } from './device/device-authorization.controller';
import { DeviceController } from './device/device.controller';
import { DeviceVerificationService } from './device/device-verification.service';
import { UserCodeGuesses } from './device/user-code-guesses';
import { SessionsClient } from './clients/sessions.client';
import { SidecarClient } from './clients/sidecar.client';
import { ApiDocsModule, Drain, RouteAuthorityModule } from '@platform/http';
import { PLATFORM_CONFIG } from './config';
import { HealthController } from './health/health.controller';
import { HealthService } from './health/health.service';
import { MetricsServer } from './health/metrics-server';
import { IdentityProviderClient } from './login/identity-provider.client';
import { LoginController } from './login/login.controller';
import { EndSessionController } from './end-session/end-session.controller';
import { EndSessionClient } from './end-session/end-session.client';
import { EndSessionService } from './end-session/end-session.service';
import { LoginService } from './login/login.service';
import { LoginTransactions } from './login/login-transactions';
import { MeController } from './me/me.controller';
import { UserInfoController } from './openid-connect/userinfo.controller';
import { UserInfoClient } from './clients/userinfo.client';
import { MetadataController } from './metadata/metadata.controller';
import { ControlPlaneRelay } from './forwarding/control-plane-relay';
import { KeysController } from './keys/keys.controller';
import { ClientRateLimits } from './oauth/client-rate-limits';
import { LocalIntrospection } from './oauth/local-introspection';
import { OAuthController } from './oauth/oauth.controller';
import { FlagsController } from './flags/flags.controller';
import { EntitlementsController, PlansController } from './plans/plans.controller';
import { FederationController } from './federation/federation.controller';
import { SamlIdentityProviderController } from './saml/saml-identity-provider.controller';
import { SamlController } from './saml/saml.controller';
import { SamlClient } from './saml/saml.client';
import { SamlTransactions } from './saml/saml-transactions';
import { JobWorkersController } from './jobs/job-workers.controller';
import { JobsController } from './jobs/jobs.controller';
import { AdminSecretsController } from './secrets/admin-secrets.controller';
import { SecretsController } from './secrets/secrets.controller';
import { MaskingSettingsController } from './masking/masking-settings.controller';
import { RateLimitRulesController } from './rate-limits/rate-limit-rules.controller';
import { ScimDiscoveryController } from './scim/scim-discovery.controller';
import { ScimController } from './scim/scim.controller';
import { ScopesController } from './scopes/scopes.controller';
import { ServiceAccountsController } from './service-accounts/service-accounts.controller';
import { ServiceAccountsHooks } from './service-accounts/service-accounts-hooks';
import { ImpersonationPolicyController } from './tenants/impersonation-policy.controller';
import { TenantUsersController } from './tenants/tenant-users.controller';
import { AdminAuditController } from './audit/admin-audit.controller';
import { AuditCheckpointController } from './audit/audit-checkpoint.controller';
import { AuditRecordsController } from './audit/audit-records.controller';
import { TokenEventsController } from './token-events/token-events.controller';
import { WebhooksController } from './webhooks/webhooks.controller';

/**
 * The backend: public routes only (no internal route is served here). It holds no database;
 * the control plane owns state and the sidecar judges tokens.
 */
@Module({})
export class BackendModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      module: BackendModule,
      imports: [ApiDocsModule, RouteAuthorityModule],
      controllers: [
        OAuthController,
        AppsController,
        ScopesController,
        TokenEventsController,
        KeysController,
        MeController,
        UserInfoController,
        HealthController,
        MetadataController,
        AuthorizeController,
        DeviceAuthorizationController,
        DeviceController,
        LoginController,
        EndSessionController,
        AppLoginController,
        AuthTokensController,
        ServiceAccountsController,
        TenantUsersController,
        ImpersonationPolicyController,
        AuditRecordsController,
        AdminAuditController,
        AuditCheckpointController,
        WebhooksController,
        ScimDiscoveryController,
        ScimController,
        RateLimitRulesController,
        FlagsController,
        PlansController,
        EntitlementsController,
        FederationController,
        SamlIdentityProviderController,
        SamlController,
        MaskingSettingsController,
        SecretsController,
        AdminSecretsController,
        JobsController,
        JobWorkersController,
      ],
      providers: [
        TracingShutdown,
        { provide: PLATFORM_CONFIG, useValue: config },
        {
          provide: ControlPlaneClient,
          useFactory: () => new ControlPlaneClient(config.controlPlaneUrl, config.internalToken),
        },
        {
          provide: SidecarClient,
          useFactory: () => new SidecarClient(config.sidecarGrpcAddress, config.internalToken),
        },
        {
          provide: ValidatedTokenCache,
          useFactory: () => new ValidatedTokenCache(config.backendTokenCacheSize),
        },
        { provide: LocalTokenVerifier, useFactory: () => new LocalTokenVerifier(config.issuer) },
        { provide: DpopResourceCheck, useFactory: () => new DpopResourceCheck(config.issuer) },
        {
          provide: LocalIntrospection,
          useFactory: (cache: ValidatedTokenCache, verifier: LocalTokenVerifier) =>
            new LocalIntrospection(cache, verifier),
          inject: [ValidatedTokenCache, LocalTokenVerifier],
        },
        { provide: LiveStreamAuthority, useFactory: () => new LiveStreamAuthority() },
        InvalidationWatcher,
        LocalRevocation,
        AppsHooks,
        ServiceAccountsHooks,
        ControlPlaneRelay,
        ClientRateLimits,
        UserCodeGuesses,
        DeviceClient,
        DeviceVerificationService,
        MetricsServer,
        { provide: Drain, useFactory: () => new Drain(config.shutdownDrainMs) },
        HealthService,
        BearerGuard,
        AdminGuard,
        ...browserProviders(config),
      ],
    };
  }
}

/** The user flow in the browser: identity provider, sessions, consent, and their cookie keys. */
function browserProviders(config: PlatformConfig): Provider[] {
  const sessionSecret = config.sessionSecret();
  return [
    {
      provide: IdentityProviderClient,
      useFactory: () =>
        new IdentityProviderClient({ ...config.oidc, redirectUri: `${config.issuer}/auth/oidc/callback` }),
    },
    { provide: BrowserCookies, useFactory: () => new BrowserCookies(cookieSettings(config)) },
    { provide: CsrfTokens, useFactory: () => new CsrfTokens(deriveKey(sessionSecret, 'csrf')) },
    SamlClient,
    {
      provide: SamlTransactions,
      useFactory: () =>
        new SamlTransactions(new SealedBox(deriveKey(sessionSecret, 'saml-transaction'), 'saml-transaction')),
    },
    {
      provide: LoginTransactions,
      useFactory: () =>
        new LoginTransactions(
          new SealedBox(deriveKey(sessionSecret, 'login-transaction'), 'login-transaction'),
        ),
    },
    SessionsClient,
    UserInfoClient,
    AuthorizationClient,
    AppLoginClient,
    LoginService,
    AuthorizeService,
    EndSessionClient,
    EndSessionService,
  ];
}
