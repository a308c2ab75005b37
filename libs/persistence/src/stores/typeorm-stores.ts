import type {
  ApplicationStore,
  AssertionReplayStore,
  FederatedIssuerStore,
  SamlIdentityProviderStore,
  SamlRequestStore,
  QuotaStore,
  AuditStore,
  AuthorizationCodeStore,
  BackchannelLogoutStore,
  DefinitionStore,
  DeviceAuthorizationStore,
  GroupStore,
  ImpersonationPolicyStore,
  JobStore,
  RefreshTokenStore,
  RevocationStore,
  ScopeStore,
  SecretStore,
  SessionStore,
  SigningKeyStore,
  Stores,
  TokenEventStore,
  UserStore,
  WebhookStore,
} from '@platform/domain';
import type { DataSource, EntityManager } from 'typeorm';
import { ConnectionLock, connectionLockFor } from '../connection-lock';
import { TypeOrmApplicationStore } from './application.store';
import { TypeOrmAuditStore } from './audit.store';
import { TypeOrmAuthorizationCodeStore } from './authorization-code.store';
import { TypeOrmBackchannelLogoutStore } from './backchannel-logout.store';
import { TypeOrmDeviceAuthorizationStore } from './device-authorization.store';
import { TypeOrmAssertionReplayStore, TypeOrmFederatedIssuerStore } from './federation.store';
import { TypeOrmSamlIdentityProviderStore, TypeOrmSamlRequestStore } from './saml.store';
import { TypeOrmQuotaStore } from './quota.store';
import { TypeOrmGroupStore } from './group.store';
import { TypeOrmImpersonationPolicyStore } from './impersonation-policy.store';
import { TypeOrmJobStore } from './job.store';
import { TypeOrmRefreshTokenStore } from './refresh-token.store';
import { TypeOrmRevocationStore } from './revocation.store';
import { TypeOrmScopeStore } from './scope.store';
import { TypeOrmSecretStore } from './secret.store';
import { TypeOrmDefinitionStore } from './service-definition.store';
import { TypeOrmSessionStore } from './session.store';
import { TypeOrmSigningKeyStore } from './signing-key.store';
import { TypeOrmTokenEventStore } from './token-event.store';
import { TypeOrmUserStore } from './user.store';
import { TypeOrmWebhookStore } from './webhook.store';

/** Every store, sharing one EntityManager (so one transaction when the manager has one). */
export class TypeOrmStores implements Stores {
  readonly applications: ApplicationStore;
  readonly scopes: ScopeStore;
  readonly signingKeys: SigningKeyStore;
  readonly revocations: RevocationStore;
  readonly tokenEvents: TokenEventStore;
  readonly users: UserStore;
  readonly groups: GroupStore;
  readonly authorizationCodes: AuthorizationCodeStore;
  readonly refreshTokens: RefreshTokenStore;
  readonly sessions: SessionStore;
  readonly audit: AuditStore;
  readonly webhooks: WebhookStore;
  readonly definitions: DefinitionStore;
  readonly secrets: SecretStore;
  readonly impersonationPolicies: ImpersonationPolicyStore;
  readonly jobs: JobStore;
  readonly deviceAuthorizations: DeviceAuthorizationStore;
  readonly backchannelLogouts: BackchannelLogoutStore;
  readonly assertionReplays: AssertionReplayStore;
  readonly federatedIssuers: FederatedIssuerStore;
  readonly samlIdentityProviders: SamlIdentityProviderStore;
  readonly samlRequests: SamlRequestStore;
  readonly quotas: QuotaStore;

  constructor(manager: EntityManager) {
    this.applications = new TypeOrmApplicationStore(manager);
    this.scopes = new TypeOrmScopeStore(manager);
    this.signingKeys = new TypeOrmSigningKeyStore(manager);
    this.revocations = new TypeOrmRevocationStore(manager);
    this.tokenEvents = new TypeOrmTokenEventStore(manager);
    this.users = new TypeOrmUserStore(manager);
    this.groups = new TypeOrmGroupStore(manager);
    this.authorizationCodes = new TypeOrmAuthorizationCodeStore(manager);
    this.refreshTokens = new TypeOrmRefreshTokenStore(manager);
    this.sessions = new TypeOrmSessionStore(manager);
    this.audit = new TypeOrmAuditStore(manager);
    this.webhooks = new TypeOrmWebhookStore(manager);
    this.definitions = new TypeOrmDefinitionStore(manager);
    this.secrets = new TypeOrmSecretStore(manager);
    this.impersonationPolicies = new TypeOrmImpersonationPolicyStore(manager);
    this.jobs = new TypeOrmJobStore(manager);
    this.deviceAuthorizations = new TypeOrmDeviceAuthorizationStore(manager);
    this.backchannelLogouts = new TypeOrmBackchannelLogoutStore(manager);
    this.assertionReplays = new TypeOrmAssertionReplayStore(manager);
    this.federatedIssuers = new TypeOrmFederatedIssuerStore(manager);
    this.samlIdentityProviders = new TypeOrmSamlIdentityProviderStore(manager);
    this.samlRequests = new TypeOrmSamlRequestStore(manager);
    this.quotas = new TypeOrmQuotaStore(manager);
  }

  /**
   * Stores for work outside a transaction. On SQLite every call waits for the running
   * transaction, which would otherwise swallow it (one shared connection).
   */
  static forDataSource(dataSource: DataSource): Stores {
    const stores = new TypeOrmStores(dataSource.manager);
    const lock = connectionLockFor(dataSource);
    if (!lock) return stores;
    return {
      applications: serialized(stores.applications, lock),
      scopes: serialized(stores.scopes, lock),
      signingKeys: serialized(stores.signingKeys, lock),
      revocations: serialized(stores.revocations, lock),
      tokenEvents: serialized(stores.tokenEvents, lock),
      users: serialized(stores.users, lock),
      groups: serialized(stores.groups, lock),
      authorizationCodes: serialized(stores.authorizationCodes, lock),
      refreshTokens: serialized(stores.refreshTokens, lock),
      sessions: serialized(stores.sessions, lock),
      audit: serialized(stores.audit, lock),
      webhooks: serialized(stores.webhooks, lock),
      definitions: serialized(stores.definitions, lock),
      secrets: serialized(stores.secrets, lock),
      impersonationPolicies: serialized(stores.impersonationPolicies, lock),
      jobs: serialized(stores.jobs, lock),
      deviceAuthorizations: serialized(stores.deviceAuthorizations, lock),
      backchannelLogouts: serialized(stores.backchannelLogouts, lock),
      assertionReplays: serialized(stores.assertionReplays, lock),
      federatedIssuers: serialized(stores.federatedIssuers, lock),
      samlIdentityProviders: serialized(stores.samlIdentityProviders, lock),
      samlRequests: serialized(stores.samlRequests, lock),
      quotas: serialized(stores.quotas, lock),
    };
  }
}

/** The same store, each method run under the connection lock. */
function serialized<Store extends object>(store: Store, lock: ConnectionLock): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => lock.run(() => value.apply(target, args) as Promise<unknown>);
    },
  });
}
