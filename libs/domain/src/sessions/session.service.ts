import type { Clock } from '../clock';
import { DomainError } from '../errors';
import type { SessionStore, User, UserStore } from '../storage';
import { sessionTokens } from '../tokens/opaque-token';
import { userFromIdentity, type ExternalIdentity, type IdentityClaimNames } from './identity-claims';

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
    private readonly users: Pick<UserStore, 'upsertUserByExternalId' | 'findUser'>,
    private readonly sessions: SessionStore,
    private readonly settings: SessionSettings,
    private readonly clock: Clock,
  ) {}

  async create(identity: ExternalIdentity): Promise<CreatedSession> {
    const now = this.clock.now();
    const user = await this.users.upsertUserByExternalId(
      userFromIdentity(identity, this.settings.claims),
      now,
    );
    const { value, hash } = sessionTokens.generate();
    const expiresAt = new Date(now.getTime() + this.settings.lifetimeSeconds * 1000);
    await this.sessions.insertSession({
      sessionHash: hash,
      userId: user.id,
      createdAt: now,
      expiresAt,
      endedAt: null,
    });
    return { session: value, expiresAt, user };
  }

  /** The user of a live session; unknown, expired and ended sessions are `unauthenticated`. */
  async resolve(session: string): Promise<User> {
    const record = sessionTokens.accepts(session)
      ? await this.sessions.findSession(sessionTokens.hash(session))
      : null;
    const live = record !== null && record.endedAt === null && record.expiresAt > this.clock.now();
    const user = live ? await this.users.findUser(record.userId) : null;
    if (!user) throw new DomainError('unauthenticated', 'the session is unknown, expired or ended');
    return user;
  }

  /** Logout. Ending an unknown or ended session is not an error: the outcome is the same. */
  async end(session: string): Promise<void> {
    if (sessionTokens.accepts(session))
      await this.sessions.endSession(sessionTokens.hash(session), this.clock.now());
  }
}
