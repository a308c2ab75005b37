import type { Clock } from '../clock';
import type { Stores } from '../storage';

/**
 * Rows one DELETE removes at most: each statement stays short, so token requests interleave
 * with a sweep of a large backlog (on SQLite they share the one connection).
 */
export const RETENTION_BATCH_ROWS = 1_000;

/** How long a quota consumption's idempotency key outlives its window (docs/plans.md). */
const QUOTA_KEY_GRACE_MS = 86_400_000;

export interface RetentionPolicy {
  /**
   * How long an expired authorization code, session or refresh-token family is kept after it
   * ended: a code replayed meanwhile still revokes what it issued (RFC 6749 section 4.1.2).
   */
  graceSeconds: number;
  /** How long a token event is listed (its audit record stays); 0 keeps them all. */
  tokenEventDays: number;
}

/** Rows deleted by one sweep, by table. */
export interface RetentionCounts {
  revocations: number;
  authorization_codes: number;
  sessions: number;
  refresh_tokens: number;
  token_events: number;
  device_authorizations: number;
  backchannel_logouts: number;
  assertion_uses: number;
  saml_requests: number;
  quota_consumptions: number;
}

type RetentionStores = Pick<
  Stores,
  | 'revocations'
  | 'authorizationCodes'
  | 'sessions'
  | 'refreshTokens'
  | 'tokenEvents'
  | 'deviceAuthorizations'
  | 'backchannelLogouts'
  | 'assertionReplays'
  | 'samlRequests'
  | 'quotas'
>;

/**
 * Deletes what no request can need any more (docs/operations.md, "Retention"): deny-list entries
 * no token can outlive, codes (device codes too), sessions and refresh-token families past their
 * expiry and the grace, back-channel logouts finished that long ago, used assertions and
 * unanswered SAML requests past their expiry, quota consumptions a day past their window, token
 * events past their retention. Each table in batches of `batchRows` rows until a
 * batch comes back short. Safe on every replica at once; a run asked for while one is under way
 * joins it.
 */
export class RetentionSweep {
  private running: Promise<RetentionCounts> | undefined;

  constructor(
    private readonly stores: RetentionStores,
    private readonly clock: Clock,
    private readonly policy: RetentionPolicy,
    private readonly batchRows = RETENTION_BATCH_ROWS,
  ) {}

  run(): Promise<RetentionCounts> {
    this.running ??= this.sweep().finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweep(): Promise<RetentionCounts> {
    const now = this.clock.now();
    const ended = new Date(now.getTime() - this.policy.graceSeconds * 1000);
    const eventsBefore = new Date(now.getTime() - this.policy.tokenEventDays * 86_400_000);
    const {
      revocations,
      authorizationCodes,
      sessions,
      refreshTokens,
      tokenEvents,
      deviceAuthorizations,
      backchannelLogouts,
      assertionReplays,
      samlRequests,
      quotas,
    } = this.stores;
    return {
      // An entry expires when no token it covers can still be valid: no grace needed.
      revocations: await this.inBatches((limit) => revocations.pruneRevocations(now, limit)),
      authorization_codes: await this.inBatches((limit) =>
        authorizationCodes.pruneAuthorizationCodes(ended, limit),
      ),
      sessions: await this.inBatches((limit) => sessions.pruneSessions(ended, limit)),
      refresh_tokens: await this.inBatches((limit) => refreshTokens.pruneRefreshTokens(ended, limit)),
      token_events:
        this.policy.tokenEventDays > 0
          ? await this.inBatches((limit) => tokenEvents.pruneTokenEvents(eventsBefore, limit))
          : 0,
      // A device code past its expiry is refused as expired_token: past the grace, unknown.
      device_authorizations: await this.inBatches((limit) =>
        deviceAuthorizations.pruneDeviceAuthorizations(ended, limit),
      ),
      // A logout token delivered or given up on: its audit record stays.
      backchannel_logouts: await this.inBatches((limit) =>
        backchannelLogouts.pruneBackchannelLogouts(ended, limit),
      ),
      // A used client assertion or workload token past its expiry is refused for its `exp`:
      // remembering its id longer proves nothing (no grace needed).
      assertion_uses: await this.inBatches((limit) => assertionReplays.pruneAssertions(now, limit)),
      // A SAML AuthnRequest never answered: past its expiry no answer to it is taken.
      saml_requests: await this.inBatches((limit) => samlRequests.pruneSamlRequests(now, limit)),
      // A quota consumption's key answers retries until a day past its window, as Redis keeps it.
      quota_consumptions: await this.inBatches((limit) =>
        quotas.pruneConsumptions(new Date(now.getTime() - QUOTA_KEY_GRACE_MS), limit),
      ),
    };
  }

  private async inBatches(prune: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await prune(this.batchRows);
      total += deleted;
      if (deleted < this.batchRows) return total;
    }
  }
}
