import { randomBytes } from 'node:crypto';
import {
  APP_TYPES,
  appHasSecret,
  appNeedsRedirectUris,
  CLIENT_ID_PATTERN,
  clientAuthMethodOf,
  TENANT_PATTERN,
  type Application,
  type ApplicationExchangePatch,
  type ApplicationKeysPatch,
  type ApplicationLogoutPatch,
  type ApplicationPage,
  type ApplicationPatch,
  type ApplicationStore,
  type AppType,
} from './application';
import { generateClientSecret, type SecretHasher } from '../clients/secret-hasher';
import type { AuditAttributes } from '../audit/audit-record';
import type { Clock } from '../clock';
import { conflict, DomainError, notFound, validationFailed } from '../errors';
import { isDefinedScope, SCOPE_PATTERN } from '../scopes';
import type { Transactor } from '../storage';
import { redirectUriProblem, redirectUriProblems } from './redirect-uri';
import { checkWebhookUrl, type WebhookUrlPolicy } from '../webhooks/webhook-url-policy';
import { EXCHANGE_AUDIENCES_MAX, resourceUriProblem } from './resource-uri';
import type { ScopeRegistry } from './scope-registry';
import { holdsAdminScope } from '../admin';
import { refusedScopesFor } from '../authority/reserved-scopes';
import { checkedClientAuth } from './client-keys';

export interface RegistrationInput {
  clientId: string;
  name: string;
  appType: string;
  declaredScopes: string[];
  redirectUris?: string[];
  /** A service app only: the tenant it acts in (SCIM provisioning). */
  tenant?: string;
  /** Omitted: none of them (not a resource, no exchange, no impersonation). */
  resourceUri?: string | null;
  exchangeAudiences?: string[];
  mayImpersonate?: boolean;
  /** Omitted: none (RP-initiated logout sends the browser nowhere). */
  postLogoutRedirectUris?: string[];
  /** Omitted or null: no back-channel logout. */
  backchannelLogoutUri?: string | null;
  /** RFC 9449 section 5.2: every token request must carry a DPoP proof. Omitted: false. */
  dpopBoundAccessTokens?: boolean;
  /** RFC 7591; omitted: a secret (none for spa). `private_key_jwt` takes `jwks` or `jwksUri` (`checkedClientAuth`). */
  tokenEndpointAuthMethod?: string;
  jwks?: unknown;
  jwksUri?: string | null;
}

/** A service account (`POST /api/v1/apps/register`): the platform names it. */
export interface ServiceAccountInput {
  name: string;
  /** Omitted: none. A service account gets only what it is explicitly given. */
  declaredScopes?: string[];
  tenant?: string;
}

export interface RegisteredApplication {
  app: Application;
  /** Shown once; undefined for spa apps, which have none. */
  clientSecret: string | undefined;
}

export interface RotatedSecret {
  clientId: string;
  clientSecret: string;
  rotatedAt: Date;
}

export interface RegistrySettings {
  /** How long an issued access token can live: deletion entries stay on the deny-list that long. */
  accessTokenLifetimeSeconds: number;
  /** The bootstrap admin app, which may not be deleted (it is how operators get back in). */
  adminClientId: string;
  /**
   * Where a `backchannel_logout_uri` and a `jwks_uri` may point: the webhooks' rules (docs/webhooks.md, "Where a
   * webhook may point"). Omitted: production's (https to public addresses only).
   */
  backchannelLogoutUrls?: WebhookUrlPolicy;
}

/** Registration, listing, changes, secret rotation and deletion of applications. */
export class ApplicationRegistry {
  constructor(
    private readonly applications: ApplicationStore,
    private readonly scopes: ScopeRegistry,
    private readonly hasher: SecretHasher,
    private readonly transactor: Transactor,
    private readonly settings: RegistrySettings,
    private readonly clock: Clock,
  ) {}

  async register(input: RegistrationInput): Promise<RegisteredApplication> {
    const appType = this.validateAppType(input.appType);
    if (!CLIENT_ID_PATTERN.test(input.clientId)) {
      throw validationFailed('client_id must be 3 to 64 characters of A-Z a-z 0-9 . _ -');
    }
    const app = await this.newApplication(input, appType, { allowNoScopes: false });
    return this.insert(app, { retryOnDuplicate: false });
  }

  /**
   * Registers a `service` app under a generated client_id, `svc-<slug of name>-<6 hex>`. Unlike
   * `register`, declaring no scope is allowed (and the default): such an account can
   * authenticate, and gets nothing until an administrator gives it scopes.
   */
  async registerServiceAccount(input: ServiceAccountInput): Promise<RegisteredApplication> {
    const template = {
      clientId: '',
      name: input.name,
      appType: 'service',
      declaredScopes: input.declaredScopes ?? [],
      tenant: input.tenant,
    };
    const app = await this.newApplication(template, 'service', { allowNoScopes: true });
    return this.insert(app, { retryOnDuplicate: true });
  }

  private async insert(
    app: Application,
    options: { retryOnDuplicate: boolean },
  ): Promise<RegisteredApplication> {
    // A private_key_jwt app proves itself with its keys: it gets no secret to leak.
    const clientSecret =
      appHasSecret(app.appType) && app.tokenEndpointAuthMethod !== 'private_key_jwt'
        ? generateClientSecret()
        : undefined;
    const stored: Application = {
      ...app,
      secretHash: clientSecret === undefined ? null : await this.hasher.hash(clientSecret),
    };
    for (let attempt = 0; ; attempt += 1) {
      const candidate = options.retryOnDuplicate
        ? { ...stored, clientId: serviceAccountClientId(stored.name) }
        : stored;
      const outcome = await this.transactor.inTransaction(async (stores) => {
        if ((await stores.applications.insertApplication(candidate)) === 'duplicate') {
          // A free client_id: the resource URI is the one another app holds.
          return (await stores.applications.findApplication(candidate.clientId)) ? 'taken' : 'resource_taken';
        }
        await stores.tokenEvents.appendTokenEvents([
          this.event('app.registered', candidate.clientId, candidate.createdAt),
        ]);
        return 'inserted';
      });
      if (outcome === 'inserted') return { app: candidate, clientSecret };
      if (outcome === 'resource_taken') throw resourceTaken(candidate.resourceUri);
      if (!options.retryOnDuplicate || attempt >= 4) {
        throw conflict(`an application with client_id ${candidate.clientId} already exists`);
      }
    }
  }

  private async newApplication(
    input: RegistrationInput,
    appType: AppType,
    options: { allowNoScopes: boolean },
  ): Promise<Application> {
    const name = input.name.trim();
    if (name.length === 0 || name.length > 200) throw validationFailed('name must be 1 to 200 characters');
    const declaredScopes = [...new Set(input.declaredScopes)];
    if (declaredScopes.length === 0 && !options.allowNoScopes) {
      throw validationFailed('declared_scopes must name at least one scope');
    }
    const malformed = declaredScopes.filter((s) => !SCOPE_PATTERN.test(s));
    if (malformed.length > 0) {
      throw validationFailed(`declared_scopes must be resource.action names: ${JSON.stringify(malformed)}`);
    }
    const defined = await this.scopes.definedNames();
    const undefinedScopes = declaredScopes.filter((s) => !isDefinedScope(s, defined));
    if (undefinedScopes.length > 0) {
      throw validationFailed(
        `undefined scopes: ${undefinedScopes.join(' ')} (define them with POST /api/v1/scopes)`,
      );
    }
    const serviceOnly = refusedScopesFor(appType, declaredScopes);
    if (serviceOnly.length > 0) {
      throw validationFailed(
        `a ${appType} app cannot declare the service-only scopes ${serviceOnly.join(' ')} (docs/authorization.md)`,
      );
    }
    const tenant = this.validateTenant(appType, input.tenant);
    if (tenant !== null && holdsAdminScope(declaredScopes)) {
      throw validationFailed(
        'an app bound to a tenant cannot declare admin.*: administration is platform-wide',
      );
    }
    const redirectUris = this.validateRedirectUris(appType, input.redirectUris ?? []);
    const exchange = {
      resourceUri: input.resourceUri ?? null,
      exchangeAudiences: input.exchangeAudiences ?? [],
      mayImpersonate: input.mayImpersonate ?? false,
    };
    checkedExchangePatch(exchange);
    const logout = this.checkedLogoutPatch(appType, {
      postLogoutRedirectUris: input.postLogoutRedirectUris ?? [],
      backchannelLogoutUri: input.backchannelLogoutUri ?? null,
    });
    return {
      ...exchange,
      ...(logout.postLogoutRedirectUris?.length && { postLogoutRedirectUris: logout.postLogoutRedirectUris }),
      ...(logout.backchannelLogoutUri != null && { backchannelLogoutUri: logout.backchannelLogoutUri }),
      ...(input.dpopBoundAccessTokens === true && { dpopBoundAccessTokens: true }),
      ...checkedClientAuth(appType, input, this.settings.backchannelLogoutUrls ?? { allowPrivateNetworks: false }),
      tenant,
      clientId: input.clientId,
      name,
      appType,
      declaredScopes,
      redirectUris,
      secretHash: null,
      createdAt: this.clock.now(),
      rotatedAt: null,
    };
  }

  async get(clientId: string): Promise<Application> {
    const app = await this.applications.findApplication(clientId);
    if (!app) throw notFound(`application ${clientId}`);
    return app;
  }

  list(page: { after?: string; limit: number }): Promise<ApplicationPage> {
    return this.applications.listApplications(page);
  }

  /**
   * Changes the app's part in token exchange (docs/tokens.md, "Resources and exchange rights of
   * an app") and in OpenID Connect logout (docs/openid-connect.md): the fields the patch names, at
   * least one; audited as `app.updated` with them.
   */
  async updateExchange(clientId: string, patch: ApplicationPatch): Promise<Application> {
    const exchange = checkedExchangePatch(patch);
    const names = (({ postLogoutRedirectUris, backchannelLogoutUri }) => ({
      ...(postLogoutRedirectUris !== undefined && { postLogoutRedirectUris }),
      ...(backchannelLogoutUri !== undefined && { backchannelLogoutUri }),
    }))(patch);
    const dpop =
      patch.dpopBoundAccessTokens === undefined ? {} : { dpopBoundAccessTokens: patch.dpopBoundAccessTokens };
    const keysNamed = patch.jwks !== undefined || patch.jwksUri !== undefined;
    if (!keysNamed && [exchange, names, dpop].every((part) => Object.keys(part).length === 0)) {
      throw validationFailed(
        'name at least one of resource_uri, token_exchange_audiences, impersonation_allowed, post_logout_redirect_uris, backchannel_logout_uri, dpop_bound_access_tokens, jwks, jwks_uri',
      );
    }
    const now = this.clock.now();
    return this.transactor.inTransaction(async (stores) => {
      let logout: ApplicationLogoutPatch = {};
      if (Object.keys(names).length > 0) {
        const app = await stores.applications.findApplication(clientId);
        if (!app) throw notFound(`application ${clientId}`);
        logout = this.checkedLogoutPatch(app.appType, names);
      }
      let keys: ApplicationKeysPatch = {};
      if (keysNamed) {
        const app = await stores.applications.findApplication(clientId);
        if (!app) throw notFound(`application ${clientId}`);
        keys = this.checkedKeysPatch(app, patch);
      }
      const checked: ApplicationPatch = { ...exchange, ...logout, ...dpop, ...keys };
      const result = await stores.applications.updateApplicationExchange(clientId, checked);
      if (result === 'not_found') throw notFound(`application ${clientId}`);
      if (result === 'conflict') throw resourceTaken(checked.resourceUri ?? null);
      await stores.tokenEvents.appendTokenEvents([
        { ...this.event('app.updated', clientId, now), attributes: changedAttributes(checked) },
      ]);
      const updated = await stores.applications.findApplication(clientId);
      if (!updated) throw notFound(`application ${clientId}`);
      return updated;
    });
  }

  /**
   * A private_key_jwt app's new keys (a rotation): exactly one of `jwks` and `jwksUri`, under the
   * registration's rules; the other is cleared. Any other app has no keys to change.
   */
  private checkedKeysPatch(app: Application, patch: ApplicationKeysPatch): ApplicationKeysPatch {
    if (clientAuthMethodOf(app) !== 'private_key_jwt') {
      throw validationFailed('jwks and jwks_uri are for private_key_jwt apps');
    }
    const keys = checkedClientAuth(
      app.appType,
      { tokenEndpointAuthMethod: 'private_key_jwt', jwks: patch.jwks, jwksUri: patch.jwksUri },
      this.settings.backchannelLogoutUrls ?? { allowPrivateNetworks: false },
    );
    return { jwks: keys.jwks ?? null, jwksUri: keys.jwksUri ?? null };
  }

  /** The old secret stops working at once: it no longer matches the stored hash. */
  async rotateSecret(clientId: string): Promise<RotatedSecret> {
    const app = await this.get(clientId);
    if (!appHasSecret(app.appType)) throw conflict(`a ${app.appType} app has no secret to rotate`);
    if (app.tokenEndpointAuthMethod === 'private_key_jwt') {
      throw conflict('a private_key_jwt app has no secret to rotate: it rotates its keys');
    }
    const clientSecret = generateClientSecret();
    const secretHash = await this.hasher.hash(clientSecret);
    const rotatedAt = this.clock.now();
    await this.transactor.inTransaction(async (stores) => {
      if (!(await stores.applications.updateApplicationSecret(clientId, secretHash, rotatedAt))) {
        throw notFound(`application ${clientId}`);
      }
      // Denies no token; tells every backend to forget the old secret's authentications.
      const horizon = new Date(rotatedAt.getTime() + this.settings.accessTokenLifetimeSeconds * 1000);
      await stores.revocations.addRevocations(
        [{ kind: 'secret', value: clientId, expiresAt: horizon }],
        rotatedAt,
      );
      await stores.tokenEvents.appendTokenEvents([this.event('app.secret_rotated', clientId, rotatedAt)]);
    });
    return { clientId, clientSecret, rotatedAt };
  }

  /** Deletes the app and, in the same transaction, revokes every token it holds. */
  async delete(clientId: string): Promise<void> {
    if (clientId === this.settings.adminClientId) {
      throw conflict('the bootstrap admin application cannot be deleted');
    }
    const now = this.clock.now();
    await this.transactor.inTransaction(async (stores) => {
      if (!(await stores.applications.deleteApplication(clientId))) throw notFound(`application ${clientId}`);
      await stores.refreshTokens.revokeRefreshTokensOfClient(clientId, now);
      const horizon = new Date(now.getTime() + this.settings.accessTokenLifetimeSeconds * 1000);
      await stores.revocations.addRevocations([{ kind: 'client', value: clientId, expiresAt: horizon }], now);
      await stores.tokenEvents.appendTokenEvents([this.event('app.deleted', clientId, now)]);
    });
  }

  /**
   * Apps registered before the 1.0 scope rules that break them, each with the declared scopes
   * that are never granted (a user-facing app's service-only scopes; a bound app's `admin.*`).
   * The control plane reports them at start-up (docs/authorization.md, "Upgrading to 1.0").
   */
  async scopeRuleBreaches(): Promise<Array<{ app: Application; neverGranted: string[] }>> {
    const breaches: Array<{ app: Application; neverGranted: string[] }> = [];
    for await (const app of this.everyApplication()) {
      const neverGranted =
        app.tenant !== null && holdsAdminScope(app.declaredScopes)
          ? app.declaredScopes.filter((scope) => holdsAdminScope([scope]))
          : refusedScopesFor(app.appType, app.declaredScopes);
      if (neverGranted.length > 0) breaches.push({ app, neverGranted });
    }
    return breaches;
  }

  /**
   * Apps registered before the redirect URI rules (RFC 8252, RFC 9700 section 2.1) with a URI
   * that breaks them, each with its problems; such a URI is refused at authorize time. The
   * control plane reports them at start-up (docs/decisions.md, "Redirect URIs").
   */
  async redirectUriRuleBreaches(): Promise<Array<{ app: Application; problems: string[] }>> {
    const breaches: Array<{ app: Application; problems: string[] }> = [];
    for await (const app of this.everyApplication()) {
      const problems = redirectUriProblems(app.appType, app.redirectUris);
      if (problems.length > 0) breaches.push({ app, problems });
    }
    return breaches;
  }

  /**
   * Makes sure the admin app exists and, when the operator configured a secret, that it is
   * the stored one. Returns a generated secret when it had to create one.
   */
  async ensureAdminApp(clientId: string, configuredSecret: string | undefined): Promise<string | undefined> {
    const existing = await this.applications.findApplication(clientId);
    if (existing) {
      if (
        configuredSecret !== undefined &&
        !(existing.secretHash && (await this.hasher.verify(existing.secretHash, configuredSecret)))
      ) {
        await this.applications.updateApplicationSecret(
          clientId,
          await this.hasher.hash(configuredSecret),
          this.clock.now(),
        );
      }
      return undefined;
    }
    const secret = configuredSecret ?? generateClientSecret();
    const app: Application = {
      clientId,
      name: 'Platform administration',
      appType: 'service',
      declaredScopes: ['admin.*'],
      redirectUris: [],
      secretHash: await this.hasher.hash(secret),
      createdAt: this.clock.now(),
      rotatedAt: null,
      tenant: null,
      resourceUri: null,
      exchangeAudiences: [],
      mayImpersonate: false,
    };
    if ((await this.applications.insertApplication(app)) === 'duplicate') {
      // Another replica created it first: its secret is the stored one, not ours.
      return this.ensureAdminApp(clientId, configuredSecret);
    }
    return configuredSecret === undefined ? secret : undefined;
  }

  /** The logout fields a patch names, each checked for an app of this type (user-facing apps only). */
  private checkedLogoutPatch(appType: AppType, patch: ApplicationLogoutPatch): ApplicationLogoutPatch {
    const { postLogoutRedirectUris, backchannelLogoutUri } = patch;
    const userFacing = appNeedsRedirectUris(appType);
    if (postLogoutRedirectUris !== undefined && postLogoutRedirectUris.length > 0) {
      if (!userFacing) throw validationFailed('a service app does not use post_logout_redirect_uris');
      const problems = postLogoutRedirectUris.flatMap((uri, index) => {
        const problem = redirectUriProblem(uri, appType);
        return problem === null ? [] : [`post_logout_redirect_uris[${index}] ${problem}`];
      });
      if (problems.length > 0)
        throw validationFailed(`invalid post_logout_redirect_uris: ${problems.join('; ')}`);
    }
    if (backchannelLogoutUri != null) {
      if (!userFacing) throw validationFailed('a service app does not use backchannel_logout_uri');
      try {
        checkWebhookUrl(
          backchannelLogoutUri,
          this.settings.backchannelLogoutUrls ?? { allowPrivateNetworks: false },
        );
      } catch (error) {
        // The webhook rules speak of `url`; the field here has its own name.
        if (error instanceof DomainError)
          throw validationFailed(error.message.replace(/^url\b/, 'backchannel_logout_uri'));
        throw error;
      }
    }
    return {
      ...(postLogoutRedirectUris !== undefined && {
        postLogoutRedirectUris: [...new Set(postLogoutRedirectUris)],
      }),
      ...(backchannelLogoutUri !== undefined && { backchannelLogoutUri }),
    };
  }

  private validateTenant(appType: AppType, tenant: string | undefined): string | null {
    if (tenant === undefined) return null;
    if (appType !== 'service') throw validationFailed('only a service app is bound to a tenant');
    if (!TENANT_PATTERN.test(tenant)) throw validationFailed('tenant must be 1 to 64 of A-Z a-z 0-9 . _ -');
    return tenant;
  }

  private validateAppType(appType: string): AppType {
    if (!(APP_TYPES as readonly string[]).includes(appType)) {
      throw validationFailed(`app_type must be one of ${APP_TYPES.join(', ')}`);
    }
    return appType as AppType;
  }

  private validateRedirectUris(appType: AppType, uris: string[]): string[] {
    if (!appNeedsRedirectUris(appType)) {
      if (uris.length > 0) throw validationFailed('a service app does not use redirect_uris');
      return [];
    }
    if (uris.length === 0) throw validationFailed(`a ${appType} app needs at least one redirect_uri`);
    const problems = redirectUriProblems(appType, uris);
    if (problems.length > 0) throw validationFailed(`invalid redirect_uris: ${problems.join('; ')}`);
    return [...new Set(uris)];
  }

  private async *everyApplication(): AsyncGenerator<Application> {
    let after: string | undefined;
    do {
      const page = await this.applications.listApplications({ after, limit: 1000 });
      yield* page.items;
      after = page.nextAfter ?? undefined;
    } while (after !== undefined);
  }

  private event(
    type: 'app.registered' | 'app.deleted' | 'app.secret_rotated' | 'app.updated',
    clientId: string,
    at: Date,
  ) {
    return { type, clientId, subject: null, jti: null, grantId: null, occurredAt: at };
  }
}

const resourceTaken = (uri: string | null) => conflict(`another application is the resource ${uri}`);

/** The exchange fields a patch names, each checked; the fields it leaves out stay out. */
function checkedExchangePatch(patch: ApplicationExchangePatch): ApplicationExchangePatch {
  const { resourceUri, exchangeAudiences, mayImpersonate } = patch;
  const resourceProblem = resourceUri == null ? null : resourceUriProblem(resourceUri);
  if (resourceProblem !== null) throw validationFailed(`resource_uri ${resourceProblem}`);
  if (exchangeAudiences !== undefined) {
    if (exchangeAudiences.length > EXCHANGE_AUDIENCES_MAX) {
      throw validationFailed(`token_exchange_audiences names at most ${EXCHANGE_AUDIENCES_MAX} resources`);
    }
    if (new Set(exchangeAudiences).size !== exchangeAudiences.length) {
      throw validationFailed('token_exchange_audiences names a resource twice');
    }
    const problems = exchangeAudiences.flatMap((uri, index) => {
      const problem = resourceUriProblem(uri);
      return problem === null ? [] : [`token_exchange_audiences[${index}] ${problem}`];
    });
    if (problems.length > 0) throw validationFailed(problems.join('; '));
  }
  return {
    ...(resourceUri !== undefined && { resourceUri }),
    ...(exchangeAudiences !== undefined && { exchangeAudiences }),
    ...(mayImpersonate !== undefined && { mayImpersonate }),
  };
}

/** What an `app.updated` record says changed, in the wire's names (audit attributes are flat). */
function changedAttributes(patch: ApplicationPatch): AuditAttributes {
  return {
    ...(patch.postLogoutRedirectUris !== undefined && {
      post_logout_redirect_uris: patch.postLogoutRedirectUris.join(' '),
    }),
    ...(patch.backchannelLogoutUri !== undefined && { backchannel_logout_uri: patch.backchannelLogoutUri }),
    ...(patch.resourceUri !== undefined && { resource_uri: patch.resourceUri }),
    ...(patch.exchangeAudiences !== undefined && {
      token_exchange_audiences: patch.exchangeAudiences.join(' '),
    }),
    ...(patch.mayImpersonate !== undefined && { impersonation_allowed: patch.mayImpersonate }),
    ...(patch.dpopBoundAccessTokens !== undefined && {
      dpop_bound_access_tokens: patch.dpopBoundAccessTokens,
    }),
    ...(patch.jwks !== undefined && {
      jwks_kids: patch.jwks === null ? null : patch.jwks.keys.map((key) => key.kid ?? '?').join(' '),
    }),
    ...(patch.jwksUri !== undefined && { jwks_uri: patch.jwksUri }),
  };
}

/** `svc-<slug of the name>-<6 random hex>`, within the 64 characters of a client_id. */
export function serviceAccountClientId(name: string): string {
  const slug =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'account';
  return `svc-${slug}-${randomBytes(3).toString('hex')}`;
}
