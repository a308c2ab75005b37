import type { AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { TokenRevoker } from '../endpoints/revocation';
import { OFFLINE_ACCESS_SCOPE } from '../oidc/oidc-scopes';
import { sessionIdOf } from '../sessions/session';
import type { Transactor } from '../storage';
import { sessionTokens } from '../tokens/opaque-token';

/** What ending a session did. */
export interface SessionEnd {
  /** False when the session was unknown or had ended already: then nothing else happened. */
  ended: boolean;
  /** Grants (refresh-token families) of the session revoked: those without `offline_access`. */
  revokedGrants: number;
  /** The clients sent a logout token (their back-channel logout queued). */
  backchannelClients: string[];
}

const NOT_ENDED: SessionEnd = { ended: false, revokedGrants: 0, backchannelClients: [] };

/**
 * Ending a browser session (platform logout, RP-initiated logout), in one transaction: the
 * session row ended; the grants begun in it revoked through the revocation path (refresh tokens,
 * access tokens by the deny-list the sidecars follow, `grant.revoked` audited) unless their scope
 * holds `offline_access` (OpenID Connect Back-Channel Logout 1.0 section 2.7); a logout token
 * queued for every client holding a grant of it that registered a `backchannel_logout_uri`
 * (the outbox, backchannel-logout.ts); `user.logout` audited.
 */
export class SessionEnding {
  constructor(
    private readonly transactor: Transactor,
    private readonly revoker: Pick<TokenRevoker, 'revokeGrants'>,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /** Ending an unknown or ended session is not an error: the outcome is the same. */
  async end(session: string): Promise<SessionEnd> {
    if (!sessionTokens.accepts(session)) return NOT_ENDED;
    const hash = sessionTokens.hash(session);
    const now = this.clock.now();
    return this.transactor.inTransaction(async (stores) => {
      const record = await stores.sessions.findSession(hash);
      if (!record || !(await stores.sessions.endSession(hash, now))) return NOT_ENDED;
      const sid = sessionIdOf(hash);
      const grants = await stores.refreshTokens.listSessionGrants(sid, now);
      const revoked = grants.filter((grant) => !grant.scopes.includes(OFFLINE_ACCESS_SCOPE));
      const tenant = (await stores.users.findUser(record.userId))?.tenant ?? null;
      const receivers: string[] = [];
      for (const clientId of [...new Set(grants.map((grant) => grant.clientId))].sort()) {
        const app = await stores.applications.findApplication(clientId);
        if (app?.backchannelLogoutUri) receivers.push(clientId);
      }
      await stores.backchannelLogouts.insertBackchannelLogouts(
        receivers.map((clientId) => ({ clientId, subject: record.userId, sid, tenant })),
        now,
      );
      // Then the grants (their refresh-token rows, then the deny-list and token events) and the
      // audit log: feeds after row writes (libs/persistence feed-order.ts).
      await this.revoker.revokeGrants(
        stores,
        revoked.map(({ grantId, clientId, userId }) => ({ grantId, clientId, subject: userId })),
      );
      await stores.audit.appendAuditRecords([
        this.trail.record({
          actor: { kind: 'user', id: record.userId },
          action: 'user.logout',
          target: record.userId,
          tenant,
          attributes: {
            sid,
            grants_revoked: revoked.length,
            backchannel_clients: receivers.join(' '),
          },
          occurredAt: now,
        }),
      ]);
      return { ended: true, revokedGrants: revoked.length, backchannelClients: receivers };
    });
  }
}
