/**
 * Storage interfaces, split by capability (fosite style): each handler asks only for the
 * slice it uses. The TypeORM adapter in libs/persistence implements all of them, and one
 * contract suite checks every implementation on SQLite and Postgres.
 */
import type { Application } from './application';
import type { AuditStore } from './audit/audit-record';
import type { JobStore } from './jobs/job';
import type { SecretStore } from './vault/secret';
import type { DefinitionStore } from './definitions/service-definition';
import type { WebhookStore } from './webhooks/webhook-endpoint';

export type InsertResult = 'created' | 'duplicate';

export interface ApplicationPage {
  items: Application[];
  /** client_id to pass as `after` for the next page, when there is one. */
  nextAfter: string | null;
}

export interface ApplicationStore {
  findApplication(clientId: string): Promise<Application | null>;
  insertApplication(app: Application): Promise<InsertResult>;
  /** Ordered by client_id; `after` is exclusive. */
  listApplications(page: { after?: string; limit: number }): Promise<ApplicationPage>;
  /** Up to `limit` apps that registered exactly `redirectUri`, by client_id, found by an index. */
  findApplicationsByRedirectUri(redirectUri: string, limit: number): Promise<Application[]>;
  /** false when there was no such application. */
  deleteApplication(clientId: string): Promise<boolean>;
  /** false when there was no such application. */
  updateApplicationSecret(clientId: string, secretHash: string, rotatedAt: Date): Promise<boolean>;
}

export interface ScopeDefinition {
  name: string;
  description: string;
  createdAt: Date;
}

export interface ScopeStore {
  insertScope(scope: ScopeDefinition): Promise<InsertResult>;
  listScopes(): Promise<ScopeDefinition[]>;
}

export interface SigningKeyRecord {
  kid: string;
  alg: 'RS256';
  /** JSON of the private JWK. Never logged, never returned by any API. */
  privateJwk: string;
  /** JSON of the public JWK. */
  publicJwk: string;
  createdAt: Date;
  /** When a newer key took over signing; the key stays published for one token lifetime. */
  retiredAt: Date | null;
}

export interface SigningKeyStore {
  /** Every stored key, newest first. */
  listSigningKeys(): Promise<SigningKeyRecord[]>;
  insertSigningKey(key: SigningKeyRecord): Promise<void>;
  retireSigningKey(kid: string, at: Date): Promise<void>;
  deleteSigningKey(kid: string): Promise<void>;
  /** Stores the private key anew (sealed, or rewrapped under another KEK). */
  replacePrivateJwk(kid: string, privateJwk: string): Promise<void>;
}

/**
 * What the deny-list holds: a token id, every token of a client issued before the entry
 * (app deletion), every token of a user issued before the entry (`subject`: the user was
 * deprovisioned), or every token of one authorization grant (refresh family revocation). A
 * `secret` entry denies no token: it says that the client's secret was rotated, so that whoever
 * remembers a successful authentication of that client (a backend answering introspection)
 * forgets it. A `signing_key` entry denies no token either: a replica rotated the signing key
 * (`value` is the new kid), so every other control-plane replica reloads its keys.
 */
export type RevocationKind = 'jti' | 'client' | 'subject' | 'grant' | 'secret' | 'signing_key';

export interface RevocationInput {
  kind: RevocationKind;
  value: string;
  /** After this instant no token the entry covers can still be valid, so it can be pruned. */
  expiresAt: Date;
}

export interface Revocation extends RevocationInput {
  /** Monotonic sequence number: sidecars follow the feed with it. */
  seq: number;
  createdAt: Date;
}

export interface RevocationStore {
  addRevocations(entries: RevocationInput[], now: Date): Promise<Revocation[]>;
  /** Entries with seq > `afterSeq`, ascending, at most `limit`. */
  listRevocationsAfter(afterSeq: number, limit: number): Promise<Revocation[]>;
  /** The highest seq the feed holds (0 when empty): where a follower of new entries starts. */
  lastRevocationSeq(): Promise<number>;
  /** Every entry that has not expired at `now`, ascending by seq. */
  listActiveRevocations(now: Date): Promise<Revocation[]>;
  /** Active entries matching any of the given (kind, value) pairs. */
  findActiveRevocations(
    keys: Array<{ kind: RevocationKind; value: string }>,
    now: Date,
  ): Promise<Revocation[]>;
  pruneRevocations(now: Date): Promise<number>;
}

export const TOKEN_EVENT_TYPES = [
  'token.issued',
  'token.revoked',
  'refresh_token.rotated',
  'grant.revoked',
  'app.registered',
  'app.deleted',
  'app.secret_rotated',
] as const;
export type TokenEventType = (typeof TOKEN_EVENT_TYPES)[number];

export interface TokenEventInput {
  type: TokenEventType;
  clientId: string;
  /** The user or, for service tokens, the client. */
  subject: string | null;
  jti: string | null;
  grantId: string | null;
  occurredAt: Date;
  /** The tenant of the user it concerns: it goes into the event's audit record only. */
  tenant?: string | null;
  /**
   * The correlation id of the request it happened in, taken when it is written later, out of
   * that request's context (a group commit): it goes into the event's audit record only.
   */
  correlationId?: string | null;
}

export interface TokenEvent extends Omit<TokenEventInput, 'tenant' | 'correlationId'> {
  id: number;
}

export interface TokenEventStore {
  appendTokenEvents(events: TokenEventInput[]): Promise<void>;
  /** Ascending by id; `after` exclusive. */
  listTokenEvents(query: { after?: number; limit: number; clientId?: string }): Promise<TokenEvent[]>;
  /**
   * Deletes, among the oldest `limit` events (by id), those that occurred before `before`;
   * answers how many. Fewer than `limit` means the oldest events left are younger.
   */
  pruneTokenEvents(before: Date, limit: number): Promise<number>;
}

/**
 * A user of a tenant: known through the external identity provider (issuer and subject, set at
 * the first login), provisioned through SCIM (userName, externalId, the SCIM profile), or both
 * once a provisioned user logs in (docs/scim.md, "One user").
 */
export interface User {
  id: string;
  /** null for a user provisioned through SCIM who has not logged in yet. */
  issuer: string | null;
  subject: string | null;
  email: string | null;
  name: string | null;
  tenant: string;
  /** Roles bound to the user itself (by the provider, or by an admin). */
  roles: string[];
  /** Roles the user holds through the groups it is a member of (read only here). */
  groupRoles: string[];
  /** SCIM `userName`; null for a user only the login flow knows. */
  userName: string | null;
  /** SCIM `externalId`: the provisioning client's own id of the user. */
  externalId: string | null;
  /** false: deprovisioned; no login, no token. */
  active: boolean;
  /** The SCIM attributes the platform keeps as given (name, emails, enterprise extension...). */
  profile: Record<string, unknown> | null;
  /** Incremented by every change made through SCIM: the resource's ETag. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A user as the identity provider describes them at login. */
export interface ExternalUserInput {
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
  tenant: string;
  roles: string[];
  /**
   * The provider said nothing about roles: `roles` applies to a new user only, and an existing
   * user keeps the roles an admin bound through the API.
   */
  keepStoredRoles: boolean;
}

/** What SCIM provisioning writes of a user: everything but the identity of its login. */
export interface ProvisionedUserInput {
  tenant: string;
  userName: string;
  externalId: string | null;
  active: boolean;
  email: string | null;
  name: string | null;
  profile: Record<string, unknown>;
}

export type ConditionalUpdateResult = 'updated' | 'not_found' | 'version_mismatch' | 'duplicate';

export interface UserStore {
  findUser(id: string): Promise<User | null>;
  /** Creates or updates by (issuer, subject); returns the stored user with its id. */
  upsertUserByExternalId(user: ExternalUserInput, now: Date): Promise<User>;
  setUserRoles(id: string, roles: string[], now: Date): Promise<boolean>;
  /** The users of one tenant, ordered by id. */
  listUsersOfTenant(tenant: string): Promise<User[]>;
  /** 'duplicate' when the tenant has a user of that userName (compared case-insensitively). */
  insertProvisionedUser(
    user: ProvisionedUserInput & { id: string; roles: string[] },
    now: Date,
  ): Promise<InsertResult>;
  /** Replaces the provisioned attributes if the stored version is `expectedVersion`, adding one to it. */
  updateProvisionedUser(
    id: string,
    expectedVersion: number,
    user: ProvisionedUserInput,
    now: Date,
  ): Promise<ConditionalUpdateResult>;
  /** The user of that userName in the tenant, compared case-insensitively. */
  findUserByUserName(tenant: string, userName: string): Promise<User | null>;
  /**
   * When no user has the identity (issuer, subject) yet: a provisioned user of the tenant no
   * login has claimed (issuer null) whose externalId is `subject` or, failing that, whose
   * userName is `userName` (case-insensitively). Else null.
   */
  findUnlinkedUser(
    tenant: string,
    match: { issuer: string; subject: string; userName: string | null },
  ): Promise<User | null>;
  /** Gives a provisioned user the identity of its login; false when it already has one. */
  linkUserIdentity(id: string, identity: { issuer: string; subject: string }, now: Date): Promise<boolean>;
  /** Deletes the user and its group memberships; false when there was no such user. */
  deleteUser(id: string): Promise<boolean>;
}

/** A SCIM group of a tenant; its members hold its roles. */
export interface Group {
  id: string;
  tenant: string;
  displayName: string;
  externalId: string | null;
  /** Platform roles every member holds through the group (names of the role bundle). */
  roles: string[];
  /** User ids, ordered. */
  members: string[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface GroupInput {
  displayName: string;
  externalId: string | null;
  roles: string[];
  members: string[];
}

export interface GroupStore {
  insertGroup(group: GroupInput & { id: string; tenant: string }, now: Date): Promise<void>;
  findGroup(id: string): Promise<Group | null>;
  /** Ordered by id. */
  listGroupsOfTenant(tenant: string): Promise<Group[]>;
  /** The groups `userId` is a member of, ordered by id. */
  listGroupsOfMember(userId: string): Promise<Group[]>;
  /** Replaces the group if the stored version is `expectedVersion`, adding one to it. */
  updateGroup(
    id: string,
    expectedVersion: number,
    group: GroupInput,
    now: Date,
  ): Promise<Exclude<ConditionalUpdateResult, 'duplicate'>>;
  deleteGroup(id: string): Promise<boolean>;
}

export interface AuthorizationCodeRecord {
  /** SHA-256 of the code; the code itself is never stored. */
  codeHash: string;
  grantId: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string;
  /**
   * `S256` for a code of the authorization endpoint. `login-code` for a one-time code of the
   * app login (`/api/v1/auth/oidc/login`), whose S256 challenge is the app's: the token endpoint
   * refuses every method but `S256`, so only the app login exchange accepts it.
   */
  codeChallengeMethod: 'S256' | 'login-code';
  createdAt: Date;
  expiresAt: Date;
  consumedAt: Date | null;
}

export interface AuthorizationCodeStore {
  insertAuthorizationCode(code: AuthorizationCodeRecord): Promise<void>;
  /**
   * Marks the code consumed if it was not, atomically. Returns the record as it was before
   * (consumedAt null means this call won), or null when there is no such code.
   */
  consumeAuthorizationCode(codeHash: string, now: Date): Promise<AuthorizationCodeRecord | null>;
  /** Deletes at most `limit` codes that expired at or before `before`; answers how many. */
  pruneAuthorizationCodes(before: Date, limit: number): Promise<number>;
}

export interface RefreshTokenRecord {
  /** SHA-256 of the token; the token itself is never stored. */
  tokenHash: string;
  grantId: string;
  clientId: string;
  userId: string;
  scopes: string[];
  createdAt: Date;
  /** When the family's first token was issued: its absolute lifetime counts from here. */
  familyCreatedAt: Date;
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

export interface RefreshTokenStore {
  insertRefreshToken(token: RefreshTokenRecord): Promise<void>;
  findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | null>;
  /**
   * Marks the token rotated if it is neither rotated nor revoked, atomically: of two
   * concurrent calls exactly one gets true.
   */
  markRefreshTokenRotated(tokenHash: string, now: Date): Promise<boolean>;
  /** Revokes every refresh token of the grant; returns how many were still live. */
  revokeRefreshTokenFamily(grantId: string, now: Date): Promise<number>;
  revokeRefreshTokensOfClient(clientId: string, now: Date): Promise<number>;
  revokeRefreshTokensOfUser(userId: string, now: Date): Promise<number>;
  /**
   * Deletes at most `limit` refresh tokens of families that ended at or before `before`: every
   * token of the grant has expired by then. A rotated token stays while its family lives, so
   * its reuse is still recognised (and revokes the family). Answers how many.
   */
  pruneRefreshTokens(before: Date, limit: number): Promise<number>;
}

/** A browser session at the platform, opened after the identity provider vouched for the user. */
export interface SessionRecord {
  /** SHA-256 of the session value; the value itself lives only in the browser's cookie. */
  sessionHash: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  /** Set at logout; an ended session never resolves again. */
  endedAt: Date | null;
}

export interface SessionStore {
  insertSession(session: SessionRecord): Promise<void>;
  findSession(sessionHash: string): Promise<SessionRecord | null>;
  /** Ends the session if it has not ended (the first end time stays); false when it was not live. */
  endSession(sessionHash: string, now: Date): Promise<boolean>;
  /** Ends every live session of the user; answers how many were live. */
  endSessionsOfUser(userId: string, now: Date): Promise<number>;
  /** Deletes at most `limit` sessions that expired at or before `before`; answers how many. */
  pruneSessions(before: Date, limit: number): Promise<number>;
}

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
  jobs: JobStore;
}

export interface Transactor {
  /** Runs `work` in one database transaction; every store it is given shares it. */
  inTransaction<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
}
