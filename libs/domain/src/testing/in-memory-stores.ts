import * as argon2 from 'argon2';
/**
 * Test support for the domain's unit specs: in-memory implementations of the storage
 * interfaces, a fixed clock that tests move by hand, factories, and a fully wired engine.
 * Not exported from the package index; imported by `*.spec.ts` files only.
 *
 * The stores follow the contract written in each store's interface, beside its feature (the
 * TypeORM adapter is checked against the same contract). They hand out copies, so code under
 * test cannot change stored state except through the interface, and a transaction that throws
 * is rolled back.
 */
import { DpopProofVerifier, DpopReplayCache } from '../tokens/dpop';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { AUDIT_GENESIS_HASH, chainAuditRecords } from '../audit/audit-chain';
import { AuditTrail } from '../audit/audit-trail';
import { IdTokenIssuer } from '../oidc/id-token';
import type {
  AuditChainHead,
  AuditCheckpoint,
  AuditEventInput,
  AuditQuery,
  AuditRange,
  AuditRecord,
  AuditStore,
} from '../audit/audit-record';
import type {
  Application,
  ApplicationPatch,
  ApplicationPage,
  ApplicationStore,
  AppType,
} from '../registry/application';
import {
  AuthorizationRequestValidator,
  type AuthorizationRequestParams,
} from '../authorization/authorization-request';
import { ConsentService } from '../authorization/consent.service';
import { ClientAuthenticator } from '../clients/client-authenticator';
import { argon2idHasher, VerifiedSecretCache, type SecretHasher } from '../clients/secret-hasher';
import { ManualClock, type Clock } from '../clock';
import { TokenIntrospector } from '../endpoints/introspection';
import { TokenRevoker } from '../endpoints/revocation';
import { DomainError, OAuthError, type DomainErrorCode, type OAuthErrorCode } from '../errors';
import { AuthorizationCodeGrant } from '../grants/authorization-code.grant';
import { DeviceCodeGrant } from '../grants/device-code.grant';
import { DeviceAuthorizationEndpoint, DeviceVerification } from '../device/device-authorization.service';
import { ClientCredentialsGrant } from '../grants/client-credentials.grant';
import { RefreshTokenGrant } from '../grants/refresh-token.grant';
import { TokenEndpoint } from '../grants/token-endpoint';
import { TokenExchangeGrant } from '../grants/token-exchange.grant';
import { TokenTargets } from '../grants/token-target';
import {
  REFRESH_TOKEN_IDLE_SECONDS,
  type RefreshTokenLifetime,
  UserTokenIssuer,
} from '../grants/user-tokens';
import { SigningKeyRing } from '../keys/signing-key-ring';
import { Envelope } from '../secrets/envelope';
import { InMemoryImpersonationPolicyStore } from './in-memory-impersonation-policy-store';
import { InMemoryJobStore } from './in-memory-job-store';
import { InMemoryBackchannelLogoutStore } from './in-memory-backchannel-logout-store';
import { SessionEnding } from '../logout/session-ending';
import { InMemoryDeviceAuthorizationStore } from './in-memory-device-authorization-store';
import { InMemoryAssertionReplayStore, InMemoryFederatedIssuerStore } from './in-memory-federation-stores';
import { InMemorySamlIdentityProviderStore, InMemorySamlRequestStore } from './in-memory-saml-stores';
import { InMemorySecretStore } from './in-memory-secret-store';
import { InMemoryQuotaStore } from './in-memory-quota-store';
import type { DefinitionKind, DefinitionStore, ServiceDefinition } from '../definitions/service-definition';
import { ApplicationRegistry } from '../registry/application-registry';
import { ScopeRegistry } from '../registry/scope-registry';
import { SESSION_LIFETIME_SECONDS, SessionService } from '../sessions/session.service';
import type { TokenEvent, TokenEventInput, TokenEventStore } from '../events/token-event';
import type { AuthorizationCodeRecord, AuthorizationCodeStore } from '../grants/authorization-code';
import type { RefreshTokenRecord, RefreshTokenStore, SessionGrant } from '../grants/refresh-token';
import type { SigningKeyRecord, SigningKeyStore } from '../keys/signing-key';
import type { ScopeDefinition, ScopeStore } from '../registry/scope-definition';
import type { Revocation, RevocationInput, RevocationKind, RevocationStore } from '../revocation/revocation';
import type { Group, GroupInput, GroupStore } from '../scim/group';
import type { SessionRecord, SessionStore } from '../sessions/session';
import type { ConditionalUpdateResult, InsertResult, Stores, Transactor } from '../storage';
import type { ProvisionedUserInput, ExternalUserInput, User, UserStore } from '../users/user';
import { ACCESS_TOKEN_LIFETIME_SECONDS, JwtAccessTokenStrategy } from '../tokens/access-token';
import { refreshTokens } from '../tokens/opaque-token';
import { AccessTokenValidator } from '../tokens/token-validator';
import { InMemoryWebhookStore } from './in-memory-webhook-store';

// ---------------------------------------------------------------------------------------------
// Clock

/** Where every spec's ManualClock starts: a whole second, so `iat` and the clock line up. */
export const TEST_START = new ManualClock().now();

// ---------------------------------------------------------------------------------------------
// Stores

const copy = <T>(value: T): T => structuredClone(value);

interface Snapshotting {
  snapshot(): unknown;
  restore(state: unknown): void;
}

export class InMemoryApplicationStore implements ApplicationStore, Snapshotting {
  private rows = new Map<string, Application>();

  async findApplication(clientId: string): Promise<Application | null> {
    const row = this.rows.get(clientId);
    return row ? copy(row) : null;
  }

  /** A resource URI another app holds is a duplicate too, as the databases' unique index has it. */
  async insertApplication(app: Application): Promise<InsertResult> {
    if (this.rows.has(app.clientId) || this.resourceHeldByOther(app.clientId, app.resourceUri)) {
      return 'duplicate';
    }
    this.rows.set(app.clientId, copy(app));
    return 'created';
  }

  async listApplications(page: { after?: string; limit: number }): Promise<ApplicationPage> {
    const sorted = [...this.rows.values()]
      .sort((a, b) => (a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0))
      .filter((a) => page.after === undefined || a.clientId > page.after);
    const items = sorted.slice(0, page.limit).map(copy);
    const nextAfter = sorted.length > page.limit ? items[items.length - 1].clientId : null;
    return { items, nextAfter };
  }

  async findApplicationsByRedirectUri(redirectUri: string, limit: number): Promise<Application[]> {
    return [...this.rows.values()]
      .filter((app) => app.redirectUris.includes(redirectUri))
      .sort((a, b) => (a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0))
      .slice(0, limit)
      .map(copy);
  }

  async deleteApplication(clientId: string): Promise<boolean> {
    return this.rows.delete(clientId);
  }

  async updateApplicationSecret(clientId: string, secretHash: string, rotatedAt: Date): Promise<boolean> {
    const row = this.rows.get(clientId);
    if (!row) return false;
    this.rows.set(clientId, { ...row, secretHash, rotatedAt: new Date(rotatedAt) });
    return true;
  }

  async findApplicationByResource(uri: string): Promise<Application | null> {
    const found = [...this.rows.values()].find((app) => app.resourceUri === uri);
    return found ? copy(found) : null;
  }

  async updateApplicationExchange(
    clientId: string,
    patch: ApplicationPatch,
  ): Promise<'updated' | 'not_found' | 'conflict'> {
    const row = this.rows.get(clientId);
    if (!row) return 'not_found';
    if (patch.resourceUri !== undefined && this.resourceHeldByOther(clientId, patch.resourceUri)) {
      return 'conflict';
    }
    const defined = Object.entries(patch).filter(([, value]) => value !== undefined);
    const updated: Application = { ...row, ...copy(Object.fromEntries(defined)) };
    // As the SQL store reads them: the logout fields only where set.
    if (updated.postLogoutRedirectUris?.length === 0) delete updated.postLogoutRedirectUris;
    if (updated.backchannelLogoutUri === null) delete updated.backchannelLogoutUri;
    if (updated.dpopBoundAccessTokens === false) delete updated.dpopBoundAccessTokens;
    if (updated.jwks === null) delete updated.jwks;
    if (updated.jwksUri === null) delete updated.jwksUri;
    this.rows.set(clientId, updated);
    return 'updated';
  }

  private resourceHeldByOther(clientId: string, uri: string | null): boolean {
    return (
      uri !== null && [...this.rows.values()].some((a) => a.resourceUri === uri && a.clientId !== clientId)
    );
  }

  snapshot(): unknown {
    return copy(this.rows);
  }

  restore(state: unknown): void {
    this.rows = state as Map<string, Application>;
  }
}

export class InMemoryScopeStore implements ScopeStore, Snapshotting {
  private rows: ScopeDefinition[] = [];

  async insertScope(scope: ScopeDefinition): Promise<InsertResult> {
    if (this.rows.some((s) => s.name === scope.name)) return 'duplicate';
    this.rows.push(copy(scope));
    return 'created';
  }

  async listScopes(): Promise<ScopeDefinition[]> {
    return [...this.rows].sort((a, b) => (a.name < b.name ? -1 : 1)).map(copy);
  }

  snapshot(): unknown {
    return copy(this.rows);
  }

  restore(state: unknown): void {
    this.rows = state as ScopeDefinition[];
  }
}

export class InMemorySigningKeyStore implements SigningKeyStore, Snapshotting {
  private rows: SigningKeyRecord[] = [];

  /** Newest first; a tie of createdAt by kid, descending, as the databases order it. */
  async listSigningKeys(): Promise<SigningKeyRecord[]> {
    return [...this.rows]
      .sort(
        (a, b) =>
          b.createdAt.getTime() - a.createdAt.getTime() || (a.kid < b.kid ? 1 : a.kid > b.kid ? -1 : 0),
      )
      .map(copy);
  }

  async insertSigningKey(key: SigningKeyRecord): Promise<void> {
    if (this.rows.some((k) => k.kid === key.kid)) throw new Error(`duplicate kid ${key.kid}`);
    this.rows.push(copy(key));
  }

  async retireSigningKey(kid: string, at: Date): Promise<void> {
    this.rows = this.rows.map((k) => (k.kid === kid ? { ...k, retiredAt: new Date(at) } : k));
  }

  async deleteSigningKey(kid: string): Promise<void> {
    this.rows = this.rows.filter((k) => k.kid !== kid);
  }

  async replacePrivateJwk(kid: string, privateJwk: string): Promise<void> {
    this.rows = this.rows.map((k) => (k.kid === kid ? { ...k, privateJwk } : k));
  }

  kids(): string[] {
    return this.rows.map((k) => k.kid);
  }

  snapshot(): unknown {
    return copy(this.rows);
  }

  restore(state: unknown): void {
    this.rows = state as SigningKeyRecord[];
  }
}

export class InMemoryRevocationStore implements RevocationStore, Snapshotting {
  private rows: Revocation[] = [];
  private lastSeq = 0;

  async addRevocations(entries: RevocationInput[], now: Date): Promise<Revocation[]> {
    const added = entries.map((e) => ({ ...copy(e), seq: ++this.lastSeq, createdAt: new Date(now) }));
    this.rows.push(...added);
    return added.map(copy);
  }

  async listRevocationsAfter(afterSeq: number, limit: number): Promise<Revocation[]> {
    return this.rows
      .filter((r) => r.seq > afterSeq)
      .slice(0, limit)
      .map(copy);
  }

  async lastRevocationSeq(): Promise<number> {
    return this.rows.at(-1)?.seq ?? 0;
  }

  async listActiveRevocations(now: Date): Promise<Revocation[]> {
    return this.rows.filter((r) => r.expiresAt > now).map(copy);
  }

  async findActiveRevocations(
    keys: Array<{ kind: RevocationKind; value: string }>,
    now: Date,
  ): Promise<Revocation[]> {
    return this.rows
      .filter((r) => r.expiresAt > now && keys.some((k) => k.kind === r.kind && k.value === r.value))
      .map(copy);
  }

  async pruneRevocations(now: Date, limit: number): Promise<number> {
    const pruned = new Set(this.rows.filter((r) => r.expiresAt <= now).slice(0, limit));
    this.rows = this.rows.filter((r) => !pruned.has(r));
    return pruned.size;
  }

  /** Every entry ever added, ascending by seq. */
  all(): Revocation[] {
    return this.rows.map(copy);
  }

  snapshot(): unknown {
    return copy({ rows: this.rows, lastSeq: this.lastSeq });
  }

  restore(state: unknown): void {
    ({ rows: this.rows, lastSeq: this.lastSeq } = state as { rows: Revocation[]; lastSeq: number });
  }
}

export class InMemoryTokenEventStore implements TokenEventStore, Snapshotting {
  private rows: TokenEvent[] = [];
  private lastId = 0;

  /** Keeps what the database keeps: the tenant goes to the audit record only. */
  async appendTokenEvents(events: TokenEventInput[]): Promise<void> {
    this.rows.push(
      ...events.map(({ type, clientId, subject, jti, grantId, occurredAt }) => ({
        ...copy({ type, clientId, subject, jti, grantId, occurredAt }),
        id: ++this.lastId,
      })),
    );
  }

  async listTokenEvents(query: { after?: number; limit: number; clientId?: string }): Promise<TokenEvent[]> {
    return this.rows
      .filter(
        (e) =>
          (query.after === undefined || e.id > query.after) &&
          (!query.clientId || e.clientId === query.clientId),
      )
      .slice(0, query.limit)
      .map(copy);
  }

  async pruneTokenEvents(before: Date, limit: number): Promise<number> {
    const doomed = new Set(this.rows.slice(0, limit).filter((e) => e.occurredAt < before));
    this.rows = this.rows.filter((e) => !doomed.has(e));
    return doomed.size;
  }

  all(): TokenEvent[] {
    return this.rows.map(copy);
  }

  snapshot(): unknown {
    return copy({ rows: this.rows, lastId: this.lastId });
  }

  restore(state: unknown): void {
    ({ rows: this.rows, lastId: this.lastId } = state as { rows: TokenEvent[]; lastId: number });
  }
}

export class InMemoryGroupStore implements GroupStore, Snapshotting {
  private rows: Group[] = [];

  async insertGroup(group: GroupInput & { id: string; tenant: string }, now: Date): Promise<void> {
    if (this.rows.some((g) => g.id === group.id)) throw new Error(`duplicate group ${group.id}`);
    this.rows.push({
      ...copy(group),
      members: sortedUnique(group.members),
      version: 1,
      createdAt: new Date(now),
      updatedAt: new Date(now),
    });
  }

  async findGroup(id: string): Promise<Group | null> {
    const row = this.rows.find((g) => g.id === id);
    return row ? copy(row) : null;
  }

  async listGroupsOfTenant(tenant: string): Promise<Group[]> {
    return byId(this.rows.filter((g) => g.tenant === tenant)).map(copy);
  }

  async listGroupsOfMember(userId: string): Promise<Group[]> {
    return byId(this.rows.filter((g) => g.members.includes(userId))).map(copy);
  }

  async updateGroup(
    id: string,
    expectedVersion: number,
    group: GroupInput,
    now: Date,
  ): Promise<Exclude<ConditionalUpdateResult, 'duplicate'>> {
    const row = this.rows.find((g) => g.id === id);
    if (!row) return 'not_found';
    if (row.version !== expectedVersion) return 'version_mismatch';
    Object.assign(row, copy(group), {
      members: sortedUnique(group.members),
      version: row.version + 1,
      updatedAt: new Date(now),
    });
    return 'updated';
  }

  async deleteGroup(id: string): Promise<boolean> {
    const before = this.rows.length;
    this.rows = this.rows.filter((g) => g.id !== id);
    return this.rows.length < before;
  }

  /** What the user store reads and changes of the memberships. */
  rolesOfMember(userId: string): string[] {
    return sortedUnique(this.rows.filter((g) => g.members.includes(userId)).flatMap((g) => g.roles));
  }

  removeMember(userId: string): void {
    for (const row of this.rows) row.members = row.members.filter((m) => m !== userId);
  }

  snapshot(): unknown {
    return copy(this.rows);
  }

  restore(state: unknown): void {
    this.rows = state as Group[];
  }
}

export class InMemoryUserStore implements UserStore, Snapshotting {
  private rows: Omit<User, 'groupRoles'>[] = [];
  private lastId = 0;

  constructor(private readonly groups: InMemoryGroupStore = new InMemoryGroupStore()) {}

  async findUser(id: string): Promise<User | null> {
    return this.read(this.rows.find((u) => u.id === id));
  }

  async upsertUserByExternalId(input: ExternalUserInput, now: Date): Promise<User> {
    const { keepStoredRoles, ...user } = input;
    const existing = this.rows.find((u) => u.issuer === user.issuer && u.subject === user.subject);
    if (existing) {
      const roles = keepStoredRoles ? existing.roles : user.roles;
      Object.assign(existing, copy({ ...user, roles }), { updatedAt: new Date(now) });
      return this.read(existing) as User;
    }
    const created = {
      ...copy(user),
      userName: null,
      externalId: null,
      active: true,
      profile: null,
      version: 1,
      id: `user-${++this.lastId}`,
      createdAt: new Date(now),
      updatedAt: new Date(now),
    };
    this.rows.push(created);
    return this.read(created) as User;
  }

  async setUserRoles(id: string, roles: string[], now: Date): Promise<boolean> {
    const row = this.rows.find((u) => u.id === id);
    if (!row) return false;
    row.roles = [...roles];
    row.updatedAt = new Date(now);
    return true;
  }

  async listUsersOfTenant(tenant: string): Promise<User[]> {
    return byId(this.rows.filter((u) => u.tenant === tenant)).map((u) => this.read(u) as User);
  }

  async insertProvisionedUser(
    user: ProvisionedUserInput & { id: string; roles: string[] },
    now: Date,
  ): Promise<InsertResult> {
    if (this.rows.some((u) => u.id === user.id)) throw new Error(`duplicate user ${user.id}`);
    if (this.userNameTaken(user.tenant, user.userName, user.id)) return 'duplicate';
    this.rows.push({
      ...copy(user),
      issuer: null,
      subject: null,
      version: 1,
      createdAt: new Date(now),
      updatedAt: new Date(now),
    });
    return 'created';
  }

  async updateProvisionedUser(
    id: string,
    expectedVersion: number,
    user: ProvisionedUserInput,
    now: Date,
  ): Promise<ConditionalUpdateResult> {
    const row = this.rows.find((u) => u.id === id);
    if (!row) return 'not_found';
    if (row.version !== expectedVersion) return 'version_mismatch';
    if (this.userNameTaken(user.tenant, user.userName, id)) return 'duplicate';
    Object.assign(row, copy(user), { version: row.version + 1, updatedAt: new Date(now) });
    return 'updated';
  }

  async findUserByUserName(tenant: string, userName: string): Promise<User | null> {
    const key = userName.toLowerCase();
    return this.read(this.rows.find((u) => u.tenant === tenant && u.userName?.toLowerCase() === key));
  }

  async findUnlinkedUser(
    tenant: string,
    match: { issuer: string; subject: string; userName: string | null },
  ): Promise<User | null> {
    if (this.rows.some((u) => u.issuer === match.issuer && u.subject === match.subject)) return null;
    const unlinked = this.rows.filter((u) => u.tenant === tenant && u.issuer === null);
    const key = match.userName?.toLowerCase();
    return this.read(
      unlinked.find((u) => u.externalId === match.subject) ??
        unlinked.find((u) => key !== undefined && u.userName?.toLowerCase() === key),
    );
  }

  async linkUserIdentity(
    id: string,
    identity: { issuer: string; subject: string },
    now: Date,
  ): Promise<boolean> {
    const row = this.rows.find((u) => u.id === id);
    if (!row || row.issuer !== null) return false;
    Object.assign(row, identity, { updatedAt: new Date(now) });
    return true;
  }

  async deleteUser(id: string): Promise<boolean> {
    const before = this.rows.length;
    this.rows = this.rows.filter((u) => u.id !== id);
    this.groups.removeMember(id);
    return this.rows.length < before;
  }

  private userNameTaken(tenant: string, userName: string, exceptId: string): boolean {
    const key = userName.toLowerCase();
    return this.rows.some(
      (u) => u.tenant === tenant && u.id !== exceptId && u.userName?.toLowerCase() === key,
    );
  }

  private read(row: Omit<User, 'groupRoles'> | undefined): User | null {
    return row ? { ...copy(row), groupRoles: this.groups.rolesOfMember(row.id) } : null;
  }

  snapshot(): unknown {
    return copy({ rows: this.rows, lastId: this.lastId });
  }

  restore(state: unknown): void {
    ({ rows: this.rows, lastId: this.lastId } = state as { rows: User[]; lastId: number });
  }
}

const byId = <T extends { id: string }>(rows: T[]): T[] =>
  [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** Deletes the first `limit` rows `doomed` picks; answers how many. */
function deleteAtMost<Row>(rows: Map<string, Row>, limit: number, doomed: (row: Row) => boolean): number {
  let deleted = 0;
  for (const [key, row] of rows) {
    if (deleted === limit) break;
    if (!doomed(row)) continue;
    rows.delete(key);
    deleted += 1;
  }
  return deleted;
}

const sortedUnique = (values: readonly string[]): string[] => [...new Set(values)].sort();

export class InMemoryAuthorizationCodeStore implements AuthorizationCodeStore, Snapshotting {
  private rows = new Map<string, AuthorizationCodeRecord>();

  async insertAuthorizationCode(code: AuthorizationCodeRecord): Promise<void> {
    this.rows.set(code.codeHash, copy(code));
  }

  async consumeAuthorizationCode(codeHash: string, now: Date): Promise<AuthorizationCodeRecord | null> {
    const row = this.rows.get(codeHash);
    if (!row) return null;
    const before = copy(row);
    if (row.consumedAt === null) row.consumedAt = new Date(now);
    return before;
  }

  async pruneAuthorizationCodes(before: Date, limit: number): Promise<number> {
    return deleteAtMost(this.rows, limit, (code) => code.expiresAt <= before);
  }

  all(): AuthorizationCodeRecord[] {
    return [...this.rows.values()].map(copy);
  }

  snapshot(): unknown {
    return copy(this.rows);
  }

  restore(state: unknown): void {
    this.rows = state as Map<string, AuthorizationCodeRecord>;
  }
}

export class InMemoryRefreshTokenStore implements RefreshTokenStore, Snapshotting {
  private rows = new Map<string, RefreshTokenRecord>();

  async insertRefreshToken(token: RefreshTokenRecord): Promise<void> {
    this.rows.set(token.tokenHash, copy(token));
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | null> {
    const row = this.rows.get(tokenHash);
    return row ? copy(row) : null;
  }

  async markRefreshTokenRotated(tokenHash: string, now: Date): Promise<boolean> {
    const row = this.rows.get(tokenHash);
    if (!row || row.rotatedAt || row.revokedAt) return false;
    row.rotatedAt = new Date(now);
    return true;
  }

  async revokeRefreshTokenFamily(grantId: string, now: Date): Promise<number> {
    return this.revokeWhere((t) => t.grantId === grantId, now);
  }

  async revokeRefreshTokensOfClient(clientId: string, now: Date): Promise<number> {
    return this.revokeWhere((t) => t.clientId === clientId, now);
  }

  async revokeRefreshTokensOfUser(userId: string, now: Date): Promise<number> {
    return this.revokeWhere((t) => t.userId === userId, now);
  }

  async findLiveRefreshTokens(userId: string, clientId: string, now: Date): Promise<RefreshTokenRecord[]> {
    return [...this.rows.values()]
      .filter((t) => t.userId === userId && t.clientId === clientId)
      .filter((t) => !t.rotatedAt && !t.revokedAt && t.expiresAt > now)
      .map(copy);
  }

  async listSessionGrants(sid: string, now: Date): Promise<SessionGrant[]> {
    const grants = new Map<string, SessionGrant>();
    const newestFirst = [...this.rows.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    for (const t of newestFirst) {
      if (t.session?.sid !== sid || t.revokedAt !== null || t.expiresAt <= now || grants.has(t.grantId))
        continue;
      grants.set(t.grantId, {
        grantId: t.grantId,
        clientId: t.clientId,
        userId: t.userId,
        scopes: [...t.scopes],
      });
    }
    return [...grants.values()].sort((a, b) => (a.grantId < b.grantId ? -1 : a.grantId > b.grantId ? 1 : 0));
  }

  async pruneRefreshTokens(before: Date, limit: number): Promise<number> {
    const live = new Set([...this.rows.values()].filter((t) => t.expiresAt > before).map((t) => t.grantId));
    return deleteAtMost(this.rows, limit, (t) => !live.has(t.grantId));
  }

  all(): RefreshTokenRecord[] {
    return [...this.rows.values()].map(copy);
  }

  private revokeWhere(matches: (t: RefreshTokenRecord) => boolean, now: Date): number {
    let live = 0;
    for (const row of this.rows.values()) {
      if (!matches(row) || row.revokedAt) continue;
      if (!row.rotatedAt) live += 1;
      row.revokedAt = new Date(now);
    }
    return live;
  }

  snapshot(): unknown {
    return copy(this.rows);
  }

  restore(state: unknown): void {
    this.rows = state as Map<string, RefreshTokenRecord>;
  }
}

export class InMemorySessionStore implements SessionStore, Snapshotting {
  private rows = new Map<string, SessionRecord>();

  async insertSession(session: SessionRecord): Promise<void> {
    // The session hash is the table's primary key.
    if (this.rows.has(session.sessionHash)) throw new Error(`duplicate session ${session.sessionHash}`);
    this.rows.set(session.sessionHash, copy(session));
  }

  async findSession(sessionHash: string): Promise<SessionRecord | null> {
    const row = this.rows.get(sessionHash);
    return row ? copy(row) : null;
  }

  async endSession(sessionHash: string, now: Date): Promise<boolean> {
    const row = this.rows.get(sessionHash);
    if (!row || row.endedAt) return false;
    row.endedAt = new Date(now);
    return true;
  }

  async endSessionsOfUser(userId: string, now: Date): Promise<number> {
    let ended = 0;
    for (const row of this.rows.values()) {
      if (row.userId !== userId || row.endedAt) continue;
      row.endedAt = new Date(now);
      ended += 1;
    }
    return ended;
  }

  async pruneSessions(before: Date, limit: number): Promise<number> {
    return deleteAtMost(this.rows, limit, (session) => session.expiresAt <= before);
  }

  all(): SessionRecord[] {
    return [...this.rows.values()].map(copy);
  }

  snapshot(): unknown {
    return copy(this.rows);
  }

  restore(state: unknown): void {
    this.rows = state as Map<string, SessionRecord>;
  }
}

/** Every store, typed as the in-memory classes so specs can look inside. */
export class InMemoryAuditStore implements AuditStore, Snapshotting {
  private rows: AuditRecord[] = [];
  private checkpoints: AuditCheckpoint[] = [];

  async insertAuditCheckpoint(checkpoint: AuditCheckpoint): Promise<'created' | 'duplicate'> {
    if (this.checkpoints.some((c) => c.treeSize === checkpoint.treeSize)) return 'duplicate';
    this.checkpoints.push(copy(checkpoint));
    return 'created';
  }

  async latestAuditCheckpoint(): Promise<AuditCheckpoint | null> {
    const latest = [...this.checkpoints].sort((a, b) => b.treeSize - a.treeSize)[0];
    return latest ? copy(latest) : null;
  }

  async appendAuditRecords(events: AuditEventInput[]): Promise<AuditRecord[]> {
    const records = chainAuditRecords(await this.auditChainHead(), copy(events));
    this.rows.push(...records);
    return records.map(copy);
  }

  async listAuditRecords(query: AuditQuery): Promise<AuditRecord[]> {
    return this.rows
      .filter(
        (r) =>
          (query.after === undefined || r.sequenceId > query.after) &&
          (query.through === undefined || r.sequenceId <= query.through) &&
          (query.tenant === undefined || r.tenant === query.tenant) &&
          (query.actorId === undefined || r.actorId === query.actorId) &&
          (query.action === undefined || r.action === query.action) &&
          (query.target === undefined || r.target === query.target) &&
          (query.since === undefined || r.occurredAt >= query.since) &&
          (query.until === undefined || r.occurredAt < query.until),
      )
      .slice(0, query.limit)
      .map(copy);
  }

  async listAuditRecordHashes(range: AuditRange): Promise<string[]> {
    return (await this.listAuditRecords(range)).map((r) => r.recordHash);
  }

  async findAuditRecords(sequenceIds: number[]): Promise<AuditRecord[]> {
    const wanted = new Set(sequenceIds);
    return this.rows.filter((r) => wanted.has(r.sequenceId)).map(copy);
  }

  async auditChainHead(): Promise<AuditChainHead> {
    const last = this.rows.at(-1);
    return last
      ? { lastSequenceId: last.sequenceId, lastHash: last.recordHash }
      : { lastSequenceId: 0, lastHash: AUDIT_GENESIS_HASH };
  }

  all(): AuditRecord[] {
    return this.rows.map(copy);
  }

  snapshot(): unknown {
    return copy({ rows: this.rows, checkpoints: this.checkpoints });
  }

  restore(state: unknown): void {
    ({ rows: this.rows, checkpoints: this.checkpoints } = state as {
      rows: AuditRecord[];
      checkpoints: AuditCheckpoint[];
    });
  }
}

export class InMemoryDefinitionStore implements DefinitionStore, Snapshotting {
  private rows: ServiceDefinition[] = [];
  private lastSeq = 0;

  async putDefinition(
    definition: Pick<ServiceDefinition, 'kind' | 'tenant' | 'name' | 'document'>,
    now: Date,
  ): Promise<ServiceDefinition> {
    const previous = this.rows.find((r) => sameDefinition(r, definition));
    const row = {
      ...copy(definition),
      version: (previous?.version ?? 0) + 1,
      seq: ++this.lastSeq,
      updatedAt: new Date(now),
    };
    this.rows = [...this.rows.filter((r) => r !== previous), row];
    return copy(row);
  }

  async findDefinition(
    kind: DefinitionKind,
    tenant: string,
    name: string,
  ): Promise<ServiceDefinition | null> {
    const row = this.rows.find((r) => sameDefinition(r, { kind, tenant, name }) && r.document !== null);
    return row ? copy(row) : null;
  }

  async listDefinitions(kind: DefinitionKind, tenant: string): Promise<ServiceDefinition[]> {
    return this.rows
      .filter((r) => r.kind === kind && r.tenant === tenant && r.document !== null)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map(copy);
  }

  async listDefinitionsAfter(afterSeq: number, limit: number): Promise<ServiceDefinition[]> {
    return this.rows
      .filter((r) => r.seq > afterSeq)
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit)
      .map(copy);
  }

  snapshot(): unknown {
    return copy({ rows: this.rows, lastSeq: this.lastSeq });
  }

  restore(state: unknown): void {
    ({ rows: this.rows, lastSeq: this.lastSeq } = state as { rows: ServiceDefinition[]; lastSeq: number });
  }
}

const sameDefinition = (
  a: Pick<ServiceDefinition, 'kind' | 'tenant' | 'name'>,
  b: Pick<ServiceDefinition, 'kind' | 'tenant' | 'name'>,
) => a.kind === b.kind && a.tenant === b.tenant && a.name === b.name;

export class InMemoryStores implements Stores {
  readonly applications = new InMemoryApplicationStore();
  readonly scopes = new InMemoryScopeStore();
  readonly signingKeys = new InMemorySigningKeyStore();
  readonly revocations = new InMemoryRevocationStore();
  readonly tokenEvents = new InMemoryTokenEventStore();
  readonly groups = new InMemoryGroupStore();
  readonly users = new InMemoryUserStore(this.groups);
  readonly authorizationCodes = new InMemoryAuthorizationCodeStore();
  readonly refreshTokens = new InMemoryRefreshTokenStore();
  readonly sessions = new InMemorySessionStore();
  readonly audit = new InMemoryAuditStore();
  readonly webhooks = new InMemoryWebhookStore();
  readonly definitions = new InMemoryDefinitionStore();
  readonly secrets = new InMemorySecretStore();
  readonly impersonationPolicies = new InMemoryImpersonationPolicyStore();
  readonly jobs = new InMemoryJobStore();
  readonly backchannelLogouts = new InMemoryBackchannelLogoutStore();
  readonly deviceAuthorizations = new InMemoryDeviceAuthorizationStore();
  readonly assertionReplays = new InMemoryAssertionReplayStore();
  readonly federatedIssuers = new InMemoryFederatedIssuerStore();
  readonly samlIdentityProviders = new InMemorySamlIdentityProviderStore();
  readonly samlRequests = new InMemorySamlRequestStore();
  readonly quotas = new InMemoryQuotaStore();

  private all(): Snapshotting[] {
    return [
      this.applications,
      this.scopes,
      this.signingKeys,
      this.revocations,
      this.tokenEvents,
      this.users,
      this.groups,
      this.authorizationCodes,
      this.refreshTokens,
      this.sessions,
      this.audit,
      this.webhooks,
      this.definitions,
      this.secrets,
      this.impersonationPolicies,
      this.jobs,
      this.deviceAuthorizations,
      this.backchannelLogouts,
      this.assertionReplays,
      this.federatedIssuers,
      this.samlIdentityProviders,
      this.samlRequests,
      this.quotas,
    ];
  }

  snapshot(): unknown[] {
    return this.all().map((s) => s.snapshot());
  }

  restore(state: unknown[]): void {
    this.all().forEach((s, i) => s.restore(state[i]));
  }
}

/**
 * Runs one transaction at a time, as SQLite does (a database's row locks give the same outcome
 * for the races specs stage), and rolls every store back when the work throws. Counts
 * transactions for specs that care.
 */
export class InMemoryTransactor implements Transactor {
  committed = 0;
  rolledBack = 0;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly stores: InMemoryStores) {}

  inTransaction<T>(work: (stores: Stores) => Promise<T>): Promise<T> {
    const run = this.tail.then(() => this.run(work));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async run<T>(work: (stores: Stores) => Promise<T>): Promise<T> {
    const before = this.stores.snapshot();
    try {
      const result = await work(this.stores);
      this.committed += 1;
      return result;
    } catch (error) {
      this.stores.restore(before);
      this.rolledBack += 1;
      throw error;
    }
  }
}

export function inMemoryStorage(): { stores: InMemoryStores; transactor: InMemoryTransactor } {
  const stores = new InMemoryStores();
  return { stores, transactor: new InMemoryTransactor(stores) };
}

/**
 * The stores as code outside any transaction sees them: every call runs as its own transaction,
 * queued behind the one in progress, as a database runs a statement outside a transaction. So a
 * transaction that rolls back restores only its own state, never a write made beside it.
 * (Never hand these to code running inside `inTransaction`: it would wait for itself.)
 */
/** Seals the test engines' signing keys: a fixed KEK, so rings on shared stores open each other's. */
export const TEST_ENVELOPE = new Envelope(Buffer.alloc(32, 7));

/** A key ring on `stores`, rotating through a transactor of its own (several may share the stores). */
export function signingKeyRingOn(
  stores: InMemoryStores | Stores,
  transactor: Transactor,
  clock: Clock,
): SigningKeyRing {
  return new SigningKeyRing(
    stores.signingKeys,
    TEST_ENVELOPE,
    transactor,
    new AuditTrail(clock),
    clock,
    ACCESS_TOKEN_LIFETIME_SECONDS,
  );
}

export function autocommitting(stores: InMemoryStores, transactor: InMemoryTransactor): Stores {
  const wrap = <T extends object>(store: T): T =>
    new Proxy(store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          transactor.inTransaction(() =>
            Promise.resolve((value as (...a: unknown[]) => unknown).apply(target, args)),
          );
      },
    });
  return {
    applications: wrap(stores.applications),
    scopes: wrap(stores.scopes),
    signingKeys: wrap(stores.signingKeys),
    revocations: wrap(stores.revocations),
    tokenEvents: wrap(stores.tokenEvents),
    users: wrap(stores.users),
    groups: wrap(stores.groups),
    authorizationCodes: wrap(stores.authorizationCodes),
    refreshTokens: wrap(stores.refreshTokens),
    sessions: wrap(stores.sessions),
    audit: wrap(stores.audit),
    webhooks: wrap(stores.webhooks),
    definitions: wrap(stores.definitions),
    secrets: wrap(stores.secrets),
    impersonationPolicies: wrap(stores.impersonationPolicies),
    jobs: wrap(stores.jobs),
    deviceAuthorizations: wrap(stores.deviceAuthorizations),
    backchannelLogouts: wrap(stores.backchannelLogouts),
    assertionReplays: wrap(stores.assertionReplays),
    federatedIssuers: wrap(stores.federatedIssuers),
    samlIdentityProviders: wrap(stores.samlIdentityProviders),
    samlRequests: wrap(stores.samlRequests),
    quotas: wrap(stores.quotas),
  };
}

// ---------------------------------------------------------------------------------------------
// Factories

/**
 * Real argon2id at its smallest cost (1 MiB, one pass): the hashes verify exactly as production's
 * do (the parameters travel in the hash), without the 64 MiB and three passes that made the
 * unit tier spend most of its time hashing on a 2-core machine.
 */
export const testArgon2idHasher: SecretHasher = {
  hash: (secret) =>
    argon2.hash(secret, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 }),
  verify: (hash, secret) => argon2idHasher.verify(hash, secret),
};

const hashes = new Map<string, Promise<string>>();

/** argon2id hash of a secret, computed once per spec file. */
export function argon2idHashOf(secret: string): Promise<string> {
  let hash = hashes.get(secret);
  if (!hash) {
    hash = testArgon2idHasher.hash(secret);
    hashes.set(secret, hash);
  }
  return hash;
}

export function anApplication(overrides: Partial<Application> = {}): Application {
  return {
    clientId: 'reports-worker',
    name: 'Reports worker',
    appType: 'service',
    declaredScopes: ['jobs.read'],
    redirectUris: [],
    secretHash: null,
    createdAt: TEST_START,
    rotatedAt: null,
    tenant: null,
    resourceUri: null,
    exchangeAudiences: [],
    mayImpersonate: false,
    ...overrides,
  };
}

export interface SeededApplication {
  app: Application;
  /** The plain secret; undefined for spa apps. */
  secret: string | undefined;
}

/** Stores an application directly, with a real argon2id hash of `${clientId}-secret`. */
export async function seedApplication(
  stores: Pick<Stores, 'applications'>,
  options: {
    clientId: string;
    appType?: AppType;
    declaredScopes?: string[];
    redirectUris?: string[];
  } & Partial<Pick<Application, 'tenant' | 'resourceUri' | 'exchangeAudiences' | 'mayImpersonate'>>,
): Promise<SeededApplication> {
  const appType = options.appType ?? 'service';
  const secret = appType === 'spa' ? undefined : `${options.clientId}-secret`;
  const { clientId, tenant, resourceUri, exchangeAudiences, mayImpersonate } = options;
  const app = anApplication({
    clientId,
    name: clientId,
    tenant: tenant ?? null,
    resourceUri: resourceUri ?? null,
    exchangeAudiences: exchangeAudiences ?? [],
    mayImpersonate: mayImpersonate ?? false,
    appType,
    declaredScopes: options.declaredScopes ?? ['jobs.read'],
    redirectUris: options.redirectUris ?? (appType === 'service' ? [] : ['https://app.example.com/callback']),
    secretHash: secret === undefined ? null : await argon2idHashOf(secret),
  });
  await stores.applications.insertApplication(app);
  return { app, secret };
}

/** Credentials in the form body (client_secret_post). */
export function postCredentials(app: SeededApplication): Record<string, string> {
  return app.secret === undefined
    ? { client_id: app.app.clientId }
    : { client_id: app.app.clientId, client_secret: app.secret };
}

/** RFC 6749 section 2.3.1: each part form-urlencoded, then `id:secret` in base64. */
export function basicAuthorization(clientId: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

/** A refresh token value and its stored record (only the hash is stored). */
export function aRefreshToken(overrides: Partial<RefreshTokenRecord> = {}): {
  value: string;
  record: RefreshTokenRecord;
} {
  const { value, hash } = refreshTokens.generate();
  return {
    value,
    record: {
      tokenHash: hash,
      grantId: 'grant-1',
      clientId: 'web-portal',
      userId: 'user-1',
      scopes: ['jobs.read'],
      createdAt: TEST_START,
      familyCreatedAt: TEST_START,
      expiresAt: new Date(TEST_START.getTime() + 30 * 24 * 3600 * 1000),
      rotatedAt: null,
      revokedAt: null,
      ...overrides,
    },
  };
}

/** A fresh RS256 key record as the ring stores it. */
export async function aSigningKeyRecord(createdAt: Date): Promise<SigningKeyRecord> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', {
    modulusLength: 2048,
    extractable: true,
  });
  const publicJwk = await exportJWK(publicKey);
  return {
    kid: await calculateJwkThumbprint(publicJwk),
    alg: 'RS256',
    privateJwk: JSON.stringify(await exportJWK(privateKey)),
    publicJwk: JSON.stringify(publicJwk),
    createdAt,
    retiredAt: null,
  };
}

let sharedKey: Promise<SigningKeyRecord> | undefined;

/** One key per spec file: RSA generation is slow, and a stored key is immutable. */
function sharedSigningKeyRecord(): Promise<SigningKeyRecord> {
  sharedKey ??= aSigningKeyRecord(new Date(TEST_START.getTime() - 24 * 3600 * 1000));
  return sharedKey;
}

// ---------------------------------------------------------------------------------------------
// Engine

export const TEST_ISSUER = 'https://auth.example.com';
export const ADMIN_CLIENT_ID = 'admin';
export const TEST_CLAIM_NAMES = { tenantClaim: 'tenant', rolesClaim: 'roles' };
/** The specification's 30-day idle window; the family lives at most 90 days (the default). */
/** IMPERSONATION_MAX_LIFETIME_SECONDS's default. */
export const TEST_IMPERSONATION_MAX_LIFETIME_SECONDS = 900;

export const TEST_REFRESH_TOKEN_LIFETIME: RefreshTokenLifetime = {
  idleSeconds: REFRESH_TOKEN_IDLE_SECONDS,
  absoluteSeconds: 90 * 24 * 3600,
};

/** Everything wired as the control plane wires it, on in-memory stores and a test clock. */
export interface TestEngine<S extends Stores = InMemoryStores, T extends Transactor = InMemoryTransactor> {
  clock: ManualClock;
  stores: S;
  transactor: T;
  hasher: SecretHasher;
  keys: SigningKeyRing;
  accessTokens: JwtAccessTokenStrategy;
  idTokens: IdTokenIssuer;
  validator: AccessTokenValidator;
  authenticator: ClientAuthenticator;
  tokenEndpoint: TokenEndpoint;
  targets: TokenTargets;
  introspector: TokenIntrospector;
  revoker: TokenRevoker;
  scopeRegistry: ScopeRegistry;
  registry: ApplicationRegistry;
  sessions: SessionService;
  consent: ConsentService;
  /** The device flow's authorization endpoint and verification page decisions (RFC 8628). */
  deviceAuthorization: DeviceAuthorizationEndpoint;
  deviceVerification: DeviceVerification;
  /** Seeds an app with a real argon2id-hashed secret. */
  seed(options: Parameters<typeof seedApplication>[1]): Promise<SeededApplication>;
  /** A client_credentials token for a seeded app, through the token endpoint. */
  tokenFor(app: SeededApplication, scope?: string): Promise<string>;
}

export function createTestEngine(): Promise<TestEngine>;
/** The same engine over other stores: the medium specs run every grant on SQLite and Postgres. */
export function createTestEngine<S extends Stores, T extends Transactor>(storage: {
  stores: S;
  transactor: T;
}): Promise<TestEngine<S, T>>;
export async function createTestEngine(
  storage: { stores: Stores; transactor: Transactor } = inMemoryStorage(),
): Promise<TestEngine<Stores, Transactor>> {
  const clock = new ManualClock(TEST_START);
  const { stores, transactor } = storage;
  const hasher = new VerifiedSecretCache(testArgon2idHasher);
  await stores.signingKeys.insertSigningKey(await sharedSigningKeyRecord());
  const trail = new AuditTrail(clock);
  const keys = signingKeyRingOn(stores, transactor, clock);
  await keys.load();
  const accessTokens = new JwtAccessTokenStrategy(
    keys,
    { issuer: TEST_ISSUER, lifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS },
    clock,
  );
  const validator = new AccessTokenValidator(accessTokens, stores.revocations, clock);
  const authenticator = new ClientAuthenticator(stores.applications, hasher);
  const revoker = new TokenRevoker(
    authenticator,
    accessTokens,
    transactor,
    ACCESS_TOKEN_LIFETIME_SECONDS,
    clock,
  );
  const idTokens = new IdTokenIssuer(keys, TEST_ISSUER, clock);
  const userTokens = new UserTokenIssuer(accessTokens, idTokens, TEST_REFRESH_TOKEN_LIFETIME, clock);
  const targets = new TokenTargets(stores.applications, TEST_ISSUER);
  const tokenEndpoint = new TokenEndpoint(
    [
      new ClientCredentialsGrant(accessTokens, stores.tokenEvents, targets, clock),
      new AuthorizationCodeGrant(transactor, revoker, userTokens, targets, clock),
      new RefreshTokenGrant(transactor, revoker, userTokens, targets, clock),
      new DeviceCodeGrant(transactor, userTokens, targets, clock),
      new TokenExchangeGrant(
        accessTokens,
        validator,
        targets,
        stores,
        {
          // Each event in a transaction of its own, audited as the control plane's grouped commits are.
          appendTokenEvents: (events) =>
            transactor.inTransaction((inTransaction) => inTransaction.tokenEvents.appendTokenEvents(events)),
        },
        { impersonationMaxLifetimeSeconds: TEST_IMPERSONATION_MAX_LIFETIME_SECONDS },
        clock,
      ),
    ],
    authenticator,
    new DpopProofVerifier(new DpopReplayCache(), () => clock.seconds),
  );
  const introspector = new TokenIntrospector(
    authenticator,
    validator,
    stores.refreshTokens,
    stores.revocations,
    TEST_ISSUER,
    clock,
  );
  const scopeRegistry = new ScopeRegistry(stores.scopes, transactor, trail, clock);
  const registry = new ApplicationRegistry(
    stores.applications,
    scopeRegistry,
    hasher,
    transactor,
    { accessTokenLifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS, adminClientId: ADMIN_CLIENT_ID },
    clock,
  );
  const sessions = new SessionService(
    stores.users,
    stores.sessions,
    transactor,
    trail,
    { claims: TEST_CLAIM_NAMES, lifetimeSeconds: SESSION_LIFETIME_SECONDS },
    clock,
    new SessionEnding(transactor, revoker, trail, clock),
  );
  const consent = new ConsentService(
    new AuthorizationRequestValidator(stores.applications),
    scopeRegistry,
    sessions,
    idTokens,
    transactor,
    trail,
    TEST_ISSUER,
    clock,
  );
  const deviceAuthorization = new DeviceAuthorizationEndpoint(authenticator, transactor, TEST_ISSUER, clock);
  const deviceVerification = new DeviceVerification(
    stores.applications,
    stores.deviceAuthorizations,
    scopeRegistry,
    sessions,
    transactor,
    trail,
    clock,
  );
  return {
    clock,
    stores,
    transactor,
    hasher,
    keys,
    accessTokens,
    idTokens,
    validator,
    authenticator,
    tokenEndpoint,
    targets,
    introspector,
    revoker,
    scopeRegistry,
    registry,
    sessions,
    consent,
    deviceAuthorization,
    deviceVerification,
    seed: (options) => seedApplication(stores, options),
    tokenFor: async (app, scope) => {
      const response = await tokenEndpoint.handle(
        { grant_type: 'client_credentials', ...postCredentials(app), ...(scope !== undefined && { scope }) },
        undefined,
      );
      return response.access_token;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// User flow

/** The PKCE example of RFC 7636 Appendix B. */
export const PKCE_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
export const PKCE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

export const TEST_IDENTITY = {
  issuer: 'https://idp.example.com',
  subject: 'ada',
  claims: { email: 'ada@example.com', name: 'Ada Lovelace', tenant: 'acme', roles: ['tenant_admin'] },
};

/** A valid authorization request of the seeded app, for its first redirect URI. */
export function anAuthorizationRequest(
  app: SeededApplication,
  overrides: Partial<AuthorizationRequestParams> = {},
): AuthorizationRequestParams {
  return {
    client_id: app.app.clientId,
    redirect_uri: app.app.redirectUris[0],
    response_type: 'code',
    code_challenge: PKCE_CHALLENGE,
    code_challenge_method: 'S256',
    state: 'xyz',
    ...overrides,
  };
}

/** Logs the test user in and approves a request of `app`: the code, and the user it is for. */
export async function approvedCode(
  engine: Pick<TestEngine, 'sessions' | 'consent'>,
  app: SeededApplication,
  overrides: Partial<AuthorizationRequestParams> = {},
): Promise<{ code: string; user: User }> {
  const { session, user } = await engine.sessions.create(TEST_IDENTITY);
  const redirectTo = await engine.consent.decide({
    request: anAuthorizationRequest(app, overrides),
    session,
    approved: true,
  });
  const code = new URL(redirectTo).searchParams.get('code');
  if (!code) throw new Error(`no code in ${redirectTo}`);
  return { code, user };
}

/**
 * The token request exchanging `code` for the app as it sends it: client_id alone for a public
 * client, with its secret for a confidential one (client_secret_post); an override of `undefined`
 * leaves that parameter out.
 */
export function codeExchange(
  app: SeededApplication,
  code: string,
  overrides: Record<string, string | undefined> = {},
): Record<string, string> {
  const params: Record<string, string | undefined> = {
    grant_type: 'authorization_code',
    ...postCredentials(app),
    code,
    redirect_uri: app.app.redirectUris[0],
    code_verifier: PKCE_VERIFIER,
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

// ---------------------------------------------------------------------------------------------
// Assertions

/** Asserts both the error class and its stable code. */
export async function expectOAuthError(promise: Promise<unknown>, code: OAuthErrorCode): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(OAuthError);
  await expect(promise).rejects.toMatchObject({ code });
}

export async function expectDomainError(promise: Promise<unknown>, code: DomainErrorCode): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(DomainError);
  await expect(promise).rejects.toMatchObject({ code });
}

/** The error a synchronous call throws (fails the test when it throws nothing). */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}
