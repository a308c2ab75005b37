/**
 * What spans the stores: the answers several of them share, and what one transaction touches.
 * Each store's interface lives beside the feature that uses it (fosite style: split by
 * capability, each handler asks only for the slice it uses). The TypeORM adapter in
 * libs/persistence implements all of them, and one contract suite checks every implementation
 * on SQLite and Postgres.
 */
import type { AuditStore } from './audit/audit-record';
import type { AssertionReplayStore } from './clients/assertion-replays';
import type { FederatedIssuerStore } from './federation/workload-federation';
import type { SamlIdentityProviderStore, SamlRequestStore } from './saml/saml-identity-provider';
import type { DefinitionStore } from './definitions/service-definition';
import type { DeviceAuthorizationStore } from './device/device-authorization';
import type { TokenEventStore } from './events/token-event';
import type { AuthorizationCodeStore } from './grants/authorization-code';
import type { RefreshTokenStore } from './grants/refresh-token';
import type { ImpersonationPolicyStore } from './impersonation/impersonation-policy';
import type { JobStore } from './jobs/job';
import type { BackchannelLogoutStore } from './logout/backchannel-logout';
import type { SigningKeyStore } from './keys/signing-key';
import type { ApplicationStore } from './registry/application';
import type { ScopeStore } from './registry/scope-definition';
import type { RevocationStore } from './revocation/revocation';
import type { GroupStore } from './scim/group';
import type { SecretStore } from './secrets/secret';
import type { SessionStore } from './sessions/session';
import type { UserStore } from './users/user';
import type { WebhookStore } from './webhooks/webhook-endpoint';
import type { QuotaStore } from './plans/quota-store';

/** What an insert under a unique key answers. */
export type InsertResult = 'created' | 'duplicate';

/** What an update of a stored version (an ETag) answers; `duplicate`: a unique name is taken. */
export type ConditionalUpdateResult = 'updated' | 'not_found' | 'version_mismatch' | 'duplicate';

/** Everything one transaction can touch. */
export interface Stores {
  applications: ApplicationStore;
  scopes: ScopeStore;
  signingKeys: SigningKeyStore;
  revocations: RevocationStore;
  tokenEvents: TokenEventStore;
  users: UserStore;
  groups: GroupStore;
  authorizationCodes: AuthorizationCodeStore;
  refreshTokens: RefreshTokenStore;
  sessions: SessionStore;
  audit: AuditStore;
  webhooks: WebhookStore;
  definitions: DefinitionStore;
  secrets: SecretStore;
  impersonationPolicies: ImpersonationPolicyStore;
  jobs: JobStore;
  backchannelLogouts: BackchannelLogoutStore;
  deviceAuthorizations: DeviceAuthorizationStore;
  assertionReplays: AssertionReplayStore;
  federatedIssuers: FederatedIssuerStore;
  samlIdentityProviders: SamlIdentityProviderStore;
  samlRequests: SamlRequestStore;
  quotas: QuotaStore;
}

export interface Transactor {
  /** Runs `work` in one database transaction; every store it is given shares it. */
  inTransaction<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
}
