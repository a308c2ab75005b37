import type { AuditTrail } from '../audit/audit-trail';
import { PLATFORM_ACTOR } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { ApplicationStore } from '../registry/application';
import type { Transactor } from '../storage';
import type { WebhookResponse, WebhookSender } from '../webhooks/webhook-delivery-worker';
import { webhookRetryDelay } from '../webhooks/webhook-retry';
import type {
  BackchannelLogout,
  BackchannelLogoutAttemptResult,
  BackchannelLogoutStore,
} from './backchannel-logout';
import type { LogoutTokenIssuer } from './logout-token';

export interface BackchannelLogoutWorkerOptions {
  /** How long a claimed logout stays leased: longer than the sender's timeout. */
  leaseMs: number;
  random?: () => number;
}

/** A result the worker records: the attempt, and whom the audit record names. */
export type BackchannelLogoutAttempt = BackchannelLogoutAttemptResult & {
  logout: Pick<BackchannelLogout, 'clientId' | 'subject' | 'sid' | 'tenant'>;
  attempts: number;
};

/**
 * Delivers back-channel logouts (Back-Channel Logout 1.0 section 2.5): claims due ones (a
 * lease), posts each client a fresh logout token as `application/x-www-form-urlencoded`
 * `logout_token=...` through the webhooks' sender (its timeout and address rules), and
 * schedules a failed one again on the webhooks' retry schedule (webhook-retry.ts), giving up
 * after the last attempt. Delivered and given-up logouts are audited.
 */
export class BackchannelLogoutWorker {
  constructor(
    private readonly logouts: BackchannelLogoutStore,
    private readonly applications: Pick<ApplicationStore, 'findApplication'>,
    private readonly tokens: Pick<LogoutTokenIssuer, 'issue'>,
    private readonly sender: WebhookSender,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
    private readonly options: BackchannelLogoutWorkerOptions,
  ) {}

  /** Leases up to `limit` due logouts. */
  claim(limit: number): Promise<BackchannelLogout[]> {
    const now = this.clock.now();
    return this.logouts.claimBackchannelLogouts({
      now,
      leaseUntil: new Date(now.getTime() + this.options.leaseMs),
      limit,
    });
  }

  /** Claims what is due, attempts each once side by side and records them; answers how many. */
  async deliverDue(limit = 100): Promise<number> {
    const claimed = await this.claim(limit);
    await this.record(await Promise.all(claimed.map((logout) => this.attempt(logout))));
    return claimed.length;
  }

  /**
   * One attempt: the token is made now (two minutes of life), posted to the URI the app has
   * registered now. An app that has none any more (or is deleted) gives the logout up at once.
   */
  async attempt(logout: BackchannelLogout): Promise<BackchannelLogoutAttempt> {
    const app = await this.applications.findApplication(logout.clientId);
    const uri = app?.backchannelLogoutUri ?? null;
    const response: WebhookResponse =
      uri === null
        ? { status: null, error: 'the application has no backchannel_logout_uri any more', excerpt: null }
        : await this.post(uri, logout);
    const now = this.clock.now();
    const attempts = logout.attempts + 1;
    const delivered = response.status !== null && response.status >= 200 && response.status < 300;
    const delay = delivered || uri === null ? null : webhookRetryDelay(attempts, this.options.random);
    return {
      id: logout.id,
      status: response.status,
      error: response.error,
      state: delivered ? 'succeeded' : delay === null ? 'dead' : 'pending',
      nextAttemptAt: delay === null ? now : new Date(now.getTime() + delay),
      logout,
      attempts,
    };
  }

  /** Records attempts and audits the logouts they finished, in one transaction. */
  async record(results: BackchannelLogoutAttempt[]): Promise<void> {
    if (results.length === 0) return;
    await this.transactor.inTransaction(async (stores) => {
      await stores.backchannelLogouts.recordBackchannelLogoutAttempts(
        results.map(({ id, status, error, state, nextAttemptAt }) => ({
          id,
          status,
          error,
          state,
          nextAttemptAt,
        })),
      );
      const finished = results.filter((result) => result.state !== 'pending');
      if (finished.length === 0) return;
      await stores.audit.appendAuditRecords(
        finished.map((result) =>
          this.trail.record({
            actor: PLATFORM_ACTOR,
            action:
              result.state === 'succeeded' ? 'logout.backchannel_delivered' : 'logout.backchannel_failed',
            target: result.logout.clientId,
            tenant: result.logout.tenant,
            outcome: result.state === 'succeeded' ? 'success' : 'failure',
            attributes: {
              client_id: result.logout.clientId,
              subject: result.logout.subject,
              sid: result.logout.sid,
              attempts: result.attempts,
              status: result.status,
              ...(result.error !== null && { error: result.error }),
            },
          }),
        ),
      );
    });
  }

  private async post(uri: string, logout: BackchannelLogout): Promise<WebhookResponse> {
    let token: string;
    try {
      token = await this.tokens.issue({
        clientId: logout.clientId,
        subject: logout.subject,
        sid: logout.sid,
      });
    } catch (error) {
      return { status: null, error: `no logout token: ${(error as Error).message}`, excerpt: null };
    }
    return this.sender.send(
      uri,
      { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'platform-backchannel-logout/1' },
      new URLSearchParams({ logout_token: token }).toString(),
    );
  }
}
