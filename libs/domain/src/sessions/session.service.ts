import type { Clock } from '../clock';
import { DomainError } from '../errors';
import type { AuditAttributes } from '../audit/audit-record';
import type { AuditTrail } from '../audit/audit-trail';
import type { Stores, Transactor } from '../storage';
import type { User, UserStore } from '../users/user';
import { type SessionStamp, sessionStampOf, type SessionStore } from './session';
import { sessionTokens } from '../tokens/opaque-token';
import type { SessionEnd, SessionEnding } from '../logout/session-ending';
import {
  userFromIdentity,
  type ExternalIdentity,
  type ExternalUser,
  type IdentityClaimNames,
} from './identity-claims';

export const SESSION_LIFETIME_SECONDS = 8 * 3600;

export interface CreatedSession {
  /** The opaque value for the browser's cookie; only its hash is stored. */
  session: string;
  expiresAt: Date;
  user: User;
}

export interface SessionSettings {
  claims: IdentityClaimNames;
  lifetimeSeconds: number;
}

/**
 * Browser sessions at the platform. Creating one upserts the user the identity provider
 * vouched for, so tenant and roles follow the provider at every login.
 */
export class SessionService {
  constructor(
    private readonly users: Pick<UserStore, 'findUser'>,
    private readonly sessions: Pick<SessionStore, 'findSession'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly settings: SessionSettings,
    private readonly clock: Clock,
    /** Ending a session: its revocations and back-channel logouts too (logout/session-ending.ts). */
    private readonly ending: Pick<SessionEnding, 'end'>,
  ) {}

  /** A login: the user upserted, the session stored and `user.login` audited, in one transaction. */
  create(identity: ExternalIdentity): Promise<CreatedSession> {
    return this.open(userFromIdentity(identity, this.settings.claims));
  }

  /**
   * A login through another protocol, its user already mapped (SAML: docs/saml.md): the same
   * upsert, linking, session and `user.login` record, with what the record adds (`method`...).
   */
  async open(external: ExternalUser, loginAttributes: AuditAttributes = {}): Promise<CreatedSession> {
    const now = this.clock.now();
    const { value, hash } = sessionTokens.generate();
    const expiresAt = new Date(now.getTime() + this.settings.lifetimeSeconds * 1000);
    const user = await this.transactor.inTransaction(async (stores) => {
      const stored = await signedInUser(stores, this.trail, external, now);
      await stores.sessions.insertSession({
        sessionHash: hash,
        userId: stored.id,
        createdAt: now,
        expiresAt,
        endedAt: null,
      });
      await stores.audit.appendAuditRecords([
        this.trail.record({
          actor: { kind: 'user', id: stored.id },
          action: 'user.login',
          target: stored.id,
          tenant: stored.tenant,
          attributes: { issuer: stored.issuer, roles: stored.roles.join(' '), ...loginAttributes },
          occurredAt: now,
        }),
      ]);
      return stored;
    });
    return { session: value, expiresAt, user };
  }

  /** The user of a live session; unknown, expired and ended sessions are `unauthenticated`. */
  async resolve(session: string): Promise<User> {
    return (await this.resolveSession(session)).user;
  }

  /** The user of a live session and what OpenID Connect names of it (`sid`, `auth_time`). */
  async resolveSession(session: string): Promise<{ user: User; stamp: SessionStamp }> {
    const record = sessionTokens.accepts(session)
      ? await this.sessions.findSession(sessionTokens.hash(session))
      : null;
    const live = record !== null && record.endedAt === null && record.expiresAt > this.clock.now();
    const user = live ? await this.users.findUser(record.userId) : null;
    if (!live || !user?.active) {
      throw new DomainError('unauthenticated', 'the session is unknown, expired or ended');
    }
    return { user, stamp: sessionStampOf(record) };
  }

  /** Logout. Ending an unknown or ended session is not an error: the outcome is the same. */
  end(session: string): Promise<SessionEnd> {
    return this.ending.end(session);
  }
}

/**
 * The user an identity provider vouched for, upserted in the caller's transaction (tenant and
 * roles follow the provider at every login); a deactivated user is refused. The first login of a
 * user provisioned through SCIM gives that user its identity, so it stays one user (docs/scim.md,
 * "One user"): in the tenant the provider names, the provisioned user not yet linked whose
 * externalId is the provider's subject, else whose userName is the provider's email
 * (case-insensitively). Every login protocol goes through here: OpenID Connect, SAML, the SAML
 * bearer grant.
 */
export async function signedInUser(
  stores: Stores,
  trail: AuditTrail,
  external: ExternalUser,
  now: Date,
): Promise<User> {
  await claimProvisionedUser(stores, trail, external, now);
  const stored = await stores.users.upsertUserByExternalId(external, now);
  if (!stored.active) throw new DomainError('forbidden', 'the account is deactivated');
  return stored;
}

async function claimProvisionedUser(
  stores: Stores,
  trail: AuditTrail,
  external: ExternalUser,
  now: Date,
): Promise<void> {
  const { issuer, subject } = external;
  const provisioned = await stores.users.findUnlinkedUser(external.tenant, {
    issuer,
    subject,
    userName: external.email,
  });
  if (
    provisioned === null ||
    !(await stores.users.linkUserIdentity(provisioned.id, { issuer, subject }, now))
  )
    return;
  await stores.audit.appendAuditRecords([
    trail.record({
      actor: { kind: 'user', id: provisioned.id },
      action: 'user.linked',
      target: provisioned.id,
      tenant: provisioned.tenant,
      attributes: { issuer },
      occurredAt: now,
    }),
  ]);
}
