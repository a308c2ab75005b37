import type {
  BackchannelLogout,
  BackchannelLogoutAttemptResult,
  BackchannelLogoutClaim,
  BackchannelLogoutInput,
  BackchannelLogoutStore,
} from '../logout/backchannel-logout';

const copy = <T>(value: T): T => structuredClone(value);

/** The back-channel logout outbox in memory, held to the same contract as the SQL store. */
export class InMemoryBackchannelLogoutStore implements BackchannelLogoutStore {
  private rows: BackchannelLogout[] = [];
  private nextId = 1;

  async insertBackchannelLogouts(logouts: BackchannelLogoutInput[], now: Date): Promise<void> {
    for (const logout of logouts) {
      this.rows.push({
        ...copy(logout),
        id: this.nextId++,
        state: 'pending',
        attempts: 0,
        nextAttemptAt: new Date(now),
        leaseUntil: null,
        lastStatus: null,
        lastError: null,
        createdAt: new Date(now),
      });
    }
  }

  async claimBackchannelLogouts(claim: BackchannelLogoutClaim): Promise<BackchannelLogout[]> {
    const now = claim.now.getTime();
    const due = this.rows
      .filter(
        (row) =>
          row.state === 'pending' &&
          row.nextAttemptAt.getTime() <= now &&
          (row.leaseUntil === null || row.leaseUntil.getTime() <= now),
      )
      .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id)
      .slice(0, claim.limit);
    for (const row of due) row.leaseUntil = new Date(claim.leaseUntil);
    return due.map(copy);
  }

  async recordBackchannelLogoutAttempts(results: BackchannelLogoutAttemptResult[]): Promise<void> {
    for (const result of results) {
      const row = this.rows.find((r) => r.id === result.id);
      if (!row) continue;
      Object.assign(row, {
        attempts: row.attempts + 1,
        state: result.state,
        nextAttemptAt: new Date(result.nextAttemptAt),
        leaseUntil: null,
        lastStatus: result.status,
        lastError: result.error,
      });
    }
  }

  async listBackchannelLogoutsOfSession(sid: string): Promise<BackchannelLogout[]> {
    return this.rows.filter((row) => row.sid === sid).map(copy);
  }

  async pruneBackchannelLogouts(before: Date, limit: number): Promise<number> {
    const doomed = new Set(
      this.rows
        .filter((row) => row.state !== 'pending' && row.nextAttemptAt.getTime() <= before.getTime())
        .slice(0, limit)
        .map((row) => row.id),
    );
    this.rows = this.rows.filter((row) => !doomed.has(row.id));
    return doomed.size;
  }

  snapshot(): unknown {
    return copy({ rows: this.rows, nextId: this.nextId });
  }

  restore(state: unknown): void {
    ({ rows: this.rows, nextId: this.nextId } = state as { rows: BackchannelLogout[]; nextId: number });
  }
}
