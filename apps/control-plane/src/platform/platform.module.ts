import { PlatformMetering } from '../plans/platform-metering';
import { QUOTA_EXPORTS, QUOTA_PROVIDERS } from '../plans/quota-providers';
import { createHash } from 'node:crypto';
import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  AccessTokenValidator,
  AssertionReplays,
  ClientAssertionVerifier,
  FederationRegistry,
  JwtBearerGrant,
  Saml2BearerGrant,
  SamlAssertionValidator,
  KeySetCache,
  WorkloadTokenVerifier,
  ImpersonationPolicies,
  TokenExchangeGrant,
  TokenTargets,
  ACCESS_TOKEN_LIFETIME_SECONDS,
  AppLoginService,
  AppTokenRefresher,
  LoginCodeGrant,
  UserAdministration,
  AuditedTransactor,
  AuditCheckpoints,
  AuditLog,
  AuditTrail,
  CrossTenantRefusalAuditor,
  ApplicationRegistry,
  Argon2Processes,
  AuthorizationCodeGrant,
  boundedArgon2,
  AuthorizationRequestValidator,
  ClientAuthenticator,
  ClientCredentialsGrant,
  ConsentService,
  DeviceCodeGrant,
  Envelope,
  GroupedTokenEvents,
  JwtAccessTokenStrategy,
  IdTokenIssuer,
  REFRESH_TOKEN_IDLE_SECONDS,
  RefreshTokenGrant,
  ScopeRegistry,
  SESSION_LIFETIME_SECONDS,
  SessionEnding,
  SessionService,
  SigningKeyRing,
  systemClock,
  DpopNonces,
  DpopProofVerifier,
  DpopReplayCache,
  epochSeconds,
  TokenEndpoint,
  TokenIntrospector,
  TokenRevoker,
  UserTokenIssuer,
  VerifiedSecretCache,
  type Clock,
  type SecretHasher,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { loadConfig, OIDC_CLAIM_DEFAULTS, type PlatformConfig } from '@platform/config';
import { openDataSource, TypeOrmStores, TypeOrmTransactor } from '@platform/persistence';
import { Drain } from '@platform/http';
import { correlationId, gaugeOf } from '@platform/telemetry';
import type { DataSource } from 'typeorm';
import { DefinitionFeed } from './definition-feed';
import { HttpKeySetFetch } from './http-key-set-fetch';
import { securePrivateStorage } from './private-storage';
import { RevocationFeed } from './revocation-feed';
import { SigningKeyFollower } from './signing-key-follower';
import { CLOCK, DATA_SOURCE, PLATFORM_CONFIG, SECRET_HASHER, STORES, TRANSACTOR } from './tokens';

/**
 * Wires the OAuth engine of libs/domain to the TypeORM adapter. Every domain object is built
 * here once; controllers receive them ready to use.
 */
@Global()
@Module({
  providers: [
    ...QUOTA_PROVIDERS,
    RevocationFeed,
    DefinitionFeed,
    SigningKeyFollower,
    { provide: PLATFORM_CONFIG, useFactory: () => loadConfig() },
    { provide: CLOCK, useValue: systemClock },
    {
      provide: Drain,
      useFactory: (config: PlatformConfig) => new Drain(config.shutdownDrainMs),
      inject: [PLATFORM_CONFIG],
    },
    {
      provide: DATA_SOURCE,
      useFactory: async (config: PlatformConfig) => {
        const logger = new Logger('PrivateStorage');
        for (const change of securePrivateStorage(config)) logger.warn(change);
        return watchPool(await openDataSource(config.databaseUrl));
      },
      inject: [PLATFORM_CONFIG],
    },
    {
      provide: STORES,
      useFactory: (ds: DataSource) => TypeOrmStores.forDataSource(ds),
      inject: [DATA_SOURCE],
    },
    {
      provide: AuditTrail,
      useFactory: (clock: Clock) => new AuditTrail(clock, correlationId),
      inject: [CLOCK],
    },
    {
      // Every transaction audits its token events with them (AuditedTransactor).
      provide: TRANSACTOR,
      useFactory: (ds: DataSource, trail: AuditTrail) =>
        new AuditedTransactor(new TypeOrmTransactor(ds), trail),
      inject: [DATA_SOURCE, AuditTrail],
    },
    {
      provide: AuditCheckpoints,
      useFactory: (stores: Stores, keys: SigningKeyRing, config: PlatformConfig, clock: Clock) =>
        new AuditCheckpoints(stores.audit, keys, config.issuer, clock),
      inject: [STORES, SigningKeyRing, PLATFORM_CONFIG, CLOCK],
    },
    {
      provide: AuditLog,
      useFactory: (stores: Stores, transactor: Transactor, trail: AuditTrail) =>
        new AuditLog(stores.audit, transactor, trail),
      inject: [STORES, TRANSACTOR, AuditTrail],
    },
    {
      provide: CrossTenantRefusalAuditor,
      useFactory: (audit: AuditLog, trail: AuditTrail, clock: Clock) =>
        new CrossTenantRefusalAuditor(audit, trail, clock),
      inject: [AuditLog, AuditTrail, CLOCK],
    },
    {
      provide: Argon2Processes,
      useFactory: (config: PlatformConfig) =>
        new Argon2Processes(config.argon2Concurrency, config.argon2Nice, (warning) =>
          new Logger('Argon2Processes').warn(warning),
        ),
      inject: [PLATFORM_CONFIG],
    },
    {
      provide: SECRET_HASHER,
      useFactory: (config: PlatformConfig, processes: Argon2Processes) =>
        new VerifiedSecretCache(boundedArgon2(processes, config.argon2Concurrency)),
      inject: [PLATFORM_CONFIG, Argon2Processes],
    },
    {
      provide: Envelope,
      useFactory: (config: PlatformConfig) => new Envelope(config.secrets.kek(), config.secrets.previousKeks),
      inject: [PLATFORM_CONFIG],
    },
    {
      provide: SigningKeyRing,
      useFactory: (
        stores: Stores,
        envelope: Envelope,
        transactor: Transactor,
        trail: AuditTrail,
        clock: Clock,
      ) =>
        new SigningKeyRing(
          stores.signingKeys,
          envelope,
          transactor,
          trail,
          clock,
          ACCESS_TOKEN_LIFETIME_SECONDS,
        ),
      inject: [STORES, Envelope, TRANSACTOR, AuditTrail, CLOCK],
    },
    {
      provide: JwtAccessTokenStrategy,
      useFactory: (keys: SigningKeyRing, config: PlatformConfig, clock: Clock) =>
        new JwtAccessTokenStrategy(
          keys,
          { issuer: config.issuer, lifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS },
          clock,
        ),
      inject: [SigningKeyRing, PLATFORM_CONFIG, CLOCK],
    },
    {
      provide: AccessTokenValidator,
      useFactory: (tokens: JwtAccessTokenStrategy, stores: Stores, clock: Clock) =>
        new AccessTokenValidator(tokens, stores.revocations, clock),
      inject: [JwtAccessTokenStrategy, STORES, CLOCK],
    },
    {
      // Key sets and discovery documents fetched under the webhooks' address rules.
      provide: HttpKeySetFetch,
      useFactory: (config: PlatformConfig) =>
        new HttpKeySetFetch({
          timeoutMs: config.webhooks.timeoutMs,
          allowPrivateNetworks: config.webhooks.allowPrivateUrls,
        }),
      inject: [PLATFORM_CONFIG],
    },
    {
      provide: KeySetCache,
      useFactory: (fetcher: HttpKeySetFetch) => new KeySetCache({ fetch: fetcher.fetch }),
      inject: [HttpKeySetFetch],
    },
    {
      // Used assertions, in the table every replica shares (grouped inserts, outside transactions).
      provide: AssertionReplays,
      useFactory: (stores: Stores) => new AssertionReplays(stores.assertionReplays),
      inject: [STORES],
    },
    {
      provide: ClientAssertionVerifier,
      useFactory: (keys: KeySetCache, replays: AssertionReplays, config: PlatformConfig, clock: Clock) =>
        new ClientAssertionVerifier(
          keys,
          replays,
          { issuer: config.issuer, tokenEndpoint: `${config.issuer}/v1/oauth/token` },
          clock,
        ),
      inject: [KeySetCache, AssertionReplays, PLATFORM_CONFIG, CLOCK],
    },
    {
      // SAML assertions (docs/saml.md): the sign-in's and the SAML bearer grant's one validator.
      provide: SamlAssertionValidator,
      useFactory: (clock: Clock) => new SamlAssertionValidator(clock),
      inject: [CLOCK],
    },
    {
      provide: WorkloadTokenVerifier,
      useFactory: (
        stores: Stores,
        keys: KeySetCache,
        fetcher: HttpKeySetFetch,
        replays: AssertionReplays,
        clock: Clock,
      ) =>
        new WorkloadTokenVerifier(
          stores.federatedIssuers,
          stores.applications,
          keys,
          fetcher.fetch,
          replays,
          clock,
        ),
      inject: [STORES, KeySetCache, HttpKeySetFetch, AssertionReplays, CLOCK],
    },
    {
      provide: FederationRegistry,
      useFactory: (
        stores: Stores,
        transactor: Transactor,
        trail: AuditTrail,
        config: PlatformConfig,
        clock: Clock,
      ) =>
        new FederationRegistry(
          stores,
          transactor,
          trail,
          { allowPrivateNetworks: config.webhooks.allowPrivateUrls },
          clock,
        ),
      inject: [STORES, TRANSACTOR, AuditTrail, PLATFORM_CONFIG, CLOCK],
    },
    {
      provide: ClientAuthenticator,
      useFactory: (stores: Stores, hasher: SecretHasher, assertions: ClientAssertionVerifier) =>
        new ClientAuthenticator(stores.applications, hasher, assertions),
      inject: [STORES, SECRET_HASHER, ClientAssertionVerifier],
    },
    {
      provide: IdTokenIssuer,
      useFactory: (keys: SigningKeyRing, config: PlatformConfig, clock: Clock) =>
        new IdTokenIssuer(keys, config.issuer, clock),
      inject: [SigningKeyRing, PLATFORM_CONFIG, CLOCK],
    },
    {
      provide: UserTokenIssuer,
      useFactory: (
        tokens: JwtAccessTokenStrategy,
        idTokens: IdTokenIssuer,
        config: PlatformConfig,
        clock: Clock,
      ) =>
        new UserTokenIssuer(
          tokens,
          idTokens,
          {
            idleSeconds: REFRESH_TOKEN_IDLE_SECONDS,
            absoluteSeconds: config.refreshTokenAbsoluteLifetimeDays * 24 * 3600,
          },
          clock,
        ),
      inject: [JwtAccessTokenStrategy, IdTokenIssuer, PLATFORM_CONFIG, CLOCK],
    },
    {
      provide: TokenTargets,
      useFactory: (stores: Stores, config: PlatformConfig) =>
        new TokenTargets(stores.applications, config.issuer),
      inject: [STORES, PLATFORM_CONFIG],
    },
    {
      provide: TokenEndpoint,
      useFactory: (
        authenticator: ClientAuthenticator,
        tokens: JwtAccessTokenStrategy,
        userTokens: UserTokenIssuer,
        revoker: TokenRevoker,
        validator: AccessTokenValidator,
        targets: TokenTargets,
        transactor: Transactor,
        config: PlatformConfig,
        clock: Clock,
        stores: Stores,
        workloads: WorkloadTokenVerifier,
        metering: PlatformMetering,
        saml: SamlAssertionValidator,
        replays: AssertionReplays,
        audit: AuditLog,
        trail: AuditTrail,
      ) => {
        // Grouped commits, each one transaction, so the batch's audit records commit with it.
        const events = new GroupedTokenEvents(
          {
            appendTokenEvents: (batch) =>
              transactor.inTransaction((inTransaction) => inTransaction.tokenEvents.appendTokenEvents(batch)),
          },
          correlationId,
        );
        return new TokenEndpoint(
          [
            new ClientCredentialsGrant(tokens, events, targets, clock),
            new AuthorizationCodeGrant(transactor, revoker, userTokens, targets, clock),
            new RefreshTokenGrant(transactor, revoker, userTokens, targets, clock),
            new DeviceCodeGrant(transactor, userTokens, targets, clock),
            new JwtBearerGrant(workloads, tokens, events, clock),
            new Saml2BearerGrant(
              stores.samlIdentityProviders,
              saml,
              replays,
              transactor,
              tokens,
              audit,
              trail,
              { tokenEndpoint: `${config.issuer}/v1/oauth/token` },
              clock,
            ),
            new TokenExchangeGrant(
              tokens,
              validator,
              targets,
              stores,
              events,
              { impersonationMaxLifetimeSeconds: config.impersonationMaxLifetimeSeconds },
              clock,
            ),
          ],
          authenticator,
          dpopProofVerifier(config, clock),
          metering,
        );
      },
      inject: [
        ClientAuthenticator,
        JwtAccessTokenStrategy,
        UserTokenIssuer,
        TokenRevoker,
        AccessTokenValidator,
        TokenTargets,
        TRANSACTOR,
        PLATFORM_CONFIG,
        CLOCK,
        STORES,
        WorkloadTokenVerifier,
        PlatformMetering,
        SamlAssertionValidator,
        AssertionReplays,
        AuditLog,
        AuditTrail,
      ],
    },
    {
      provide: TokenIntrospector,
      useFactory: (
        authenticator: ClientAuthenticator,
        validator: AccessTokenValidator,
        stores: Stores,
        config: PlatformConfig,
        clock: Clock,
      ) =>
        new TokenIntrospector(
          authenticator,
          validator,
          stores.refreshTokens,
          stores.revocations,
          config.issuer,
          clock,
        ),
      inject: [ClientAuthenticator, AccessTokenValidator, STORES, PLATFORM_CONFIG, CLOCK],
    },
    {
      provide: TokenRevoker,
      useFactory: (
        authenticator: ClientAuthenticator,
        tokens: JwtAccessTokenStrategy,
        transactor: Transactor,
        clock: Clock,
      ) => new TokenRevoker(authenticator, tokens, transactor, ACCESS_TOKEN_LIFETIME_SECONDS, clock),
      inject: [ClientAuthenticator, JwtAccessTokenStrategy, TRANSACTOR, CLOCK],
    },
    {
      provide: ScopeRegistry,
      useFactory: (stores: Stores, transactor: Transactor, trail: AuditTrail, clock: Clock) =>
        new ScopeRegistry(stores.scopes, transactor, trail, clock),
      inject: [STORES, TRANSACTOR, AuditTrail, CLOCK],
    },
    {
      provide: ApplicationRegistry,
      useFactory: (
        stores: Stores,
        scopes: ScopeRegistry,
        hasher: SecretHasher,
        transactor: Transactor,
        config: PlatformConfig,
        clock: Clock,
      ) =>
        new ApplicationRegistry(
          stores.applications,
          scopes,
          hasher,
          transactor,
          {
            accessTokenLifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS,
            adminClientId: config.adminClientId,
            backchannelLogoutUrls: { allowPrivateNetworks: config.webhooks.allowPrivateUrls },
          },
          clock,
        ),
      inject: [STORES, ScopeRegistry, SECRET_HASHER, TRANSACTOR, PLATFORM_CONFIG, CLOCK],
    },
    {
      provide: SessionService,
      useFactory: (
        stores: Stores,
        transactor: Transactor,
        trail: AuditTrail,
        config: PlatformConfig,
        clock: Clock,
        revoker: TokenRevoker,
      ) =>
        new SessionService(
          stores.users,
          stores.sessions,
          transactor,
          trail,
          {
            claims: {
              tenantClaim: config.oidc.tenantClaim ?? OIDC_CLAIM_DEFAULTS.tenantClaim,
              rolesClaim: config.oidc.rolesClaim ?? OIDC_CLAIM_DEFAULTS.rolesClaim,
            },
            lifetimeSeconds: SESSION_LIFETIME_SECONDS,
          },
          clock,
          new SessionEnding(transactor, revoker, trail, clock),
        ),
      inject: [STORES, TRANSACTOR, AuditTrail, PLATFORM_CONFIG, CLOCK, TokenRevoker],
    },
    {
      provide: ConsentService,
      useFactory: (
        stores: Stores,
        scopes: ScopeRegistry,
        sessions: SessionService,
        idTokens: IdTokenIssuer,
        transactor: Transactor,
        trail: AuditTrail,
        config: PlatformConfig,
        clock: Clock,
      ) =>
        new ConsentService(
          new AuthorizationRequestValidator(stores.applications),
          scopes,
          sessions,
          idTokens,
          transactor,
          trail,
          config.issuer,
          clock,
        ),
      inject: [
        STORES,
        ScopeRegistry,
        SessionService,
        IdTokenIssuer,
        TRANSACTOR,
        AuditTrail,
        PLATFORM_CONFIG,
        CLOCK,
      ],
    },
    {
      provide: AppLoginService,
      useFactory: (stores: Stores, sessions: SessionService, clock: Clock) =>
        new AppLoginService(stores.applications, sessions, stores.authorizationCodes, clock),
      inject: [STORES, SessionService, CLOCK],
    },
    {
      provide: LoginCodeGrant,
      useFactory: (
        authenticator: ClientAuthenticator,
        transactor: Transactor,
        revoker: TokenRevoker,
        userTokens: UserTokenIssuer,
        clock: Clock,
      ) => new LoginCodeGrant(authenticator, transactor, revoker, userTokens, clock),
      inject: [ClientAuthenticator, TRANSACTOR, TokenRevoker, UserTokenIssuer, CLOCK],
    },
    {
      provide: AppTokenRefresher,
      useFactory: (
        authenticator: ClientAuthenticator,
        transactor: Transactor,
        revoker: TokenRevoker,
        userTokens: UserTokenIssuer,
        targets: TokenTargets,
        clock: Clock,
      ) =>
        new AppTokenRefresher(
          authenticator,
          new RefreshTokenGrant(transactor, revoker, userTokens, targets, clock),
        ),
      inject: [ClientAuthenticator, TRANSACTOR, TokenRevoker, UserTokenIssuer, TokenTargets, CLOCK],
    },
    {
      provide: ImpersonationPolicies,
      useFactory: (stores: Stores, transactor: Transactor, trail: AuditTrail, clock: Clock) =>
        new ImpersonationPolicies(stores.impersonationPolicies, transactor, trail, clock),
      inject: [STORES, TRANSACTOR, AuditTrail, CLOCK],
    },
    {
      provide: UserAdministration,
      useFactory: (stores: Stores, transactor: Transactor, trail: AuditTrail, clock: Clock) =>
        new UserAdministration(stores.users, transactor, trail, clock),
      inject: [STORES, TRANSACTOR, AuditTrail, CLOCK],
    },
  ],
  exports: [
    ...QUOTA_EXPORTS,
    Drain,
    ImpersonationPolicies,
    Envelope,
    AuditCheckpoints,
    AuditLog,
    AuditTrail,
    CrossTenantRefusalAuditor,
    AppLoginService,
    LoginCodeGrant,
    AppTokenRefresher,
    UserAdministration,
    RevocationFeed,
    DefinitionFeed,
    SigningKeyFollower,
    DATA_SOURCE,
    PLATFORM_CONFIG,
    CLOCK,
    STORES,
    TRANSACTOR,
    SigningKeyRing,
    JwtAccessTokenStrategy,
    AccessTokenValidator,
    TokenEndpoint,
    TokenIntrospector,
    TokenRevoker,
    ScopeRegistry,
    ApplicationRegistry,
    SessionService,
    ConsentService,
    ClientAuthenticator,
    FederationRegistry,
    AssertionReplays,
    SamlAssertionValidator,
  ],
})
export class PlatformModule implements OnApplicationShutdown {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly argon2: Argon2Processes,
    private readonly keySetFetch: HttpKeySetFetch,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.argon2.close();
    await this.keySetFetch.close();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** Postgres pool use as gauges (SQLite has one connection and no pool). */
function watchPool(dataSource: DataSource): DataSource {
  const pool = (
    dataSource.driver as { master?: { totalCount: number; idleCount: number; waitingCount: number } }
  ).master;
  if (dataSource.options.type === 'postgres' && pool) {
    gaugeOf('platform_db_pool_connections', 'Connections the Postgres pool holds.', () => pool.totalCount);
    gaugeOf(
      'platform_db_pool_idle_connections',
      'Idle connections of the Postgres pool.',
      () => pool.idleCount,
    );
    gaugeOf(
      'platform_db_pool_waiting_requests',
      'Queries waiting for a connection of the pool.',
      () => pool.waitingCount,
    );
  }
  return dataSource;
}

/**
 * The token endpoint's DPoP checks (RFC 9449, docs/tokens.md "DPoP"): proof ids remembered per
 * process for the `iat` window; with DPOP_NONCE_REQUIRED, nonces every replica accepts (their
 * HMAC key is derived from the internal token all of them share).
 */
function dpopProofVerifier(config: PlatformConfig, clock: Clock): DpopProofVerifier {
  const now = () => epochSeconds(clock);
  const nonces = config.dpopNonceRequired
    ? new DpopNonces(createHash('sha256').update(`dpop-nonce\0${config.internalToken}`).digest(), now)
    : undefined;
  return new DpopProofVerifier(new DpopReplayCache(), now, { ...(nonces && { nonces }) });
}
