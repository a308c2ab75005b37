import type {
  BackchannelLogout,
  BackchannelLogoutAttemptResult,
  BackchannelLogoutClaim,
  BackchannelLogoutInput,
  BackchannelLogoutState,
  BackchannelLogoutStore,
} from '@platform/domain';
import { In, type EntityManager } from 'typeorm';
import { BackchannelLogoutEntity } from '../entities/backchannel-logout.entity';
import { pruneBatch } from './prune-batch';
import { placeholderFor, type Placeholder } from './raw-sql';

export class TypeOrmBackchannelLogoutStore implements BackchannelLogoutStore {
  private readonly placeholder: Placeholder;

  constructor(private readonly manager: EntityManager) {
    this.placeholder = placeholderFor(manager);
  }

  async insertBackchannelLogouts(logouts: BackchannelLogoutInput[], now: Date): Promise<void> {
    if (logouts.length === 0) return;
    await this.manager.insert(
      BackchannelLogoutEntity,
      logouts.map((logout) => ({
        ...logout,
        state: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        leaseUntil: null,
        lastStatus: null,
        lastError: null,
        createdAt: now,
      })),
    );
  }

  /**
   * The due rows by the due index, then the lease as a conditional UPDATE (as webhook deliveries
   * are leased): when two workers pick the same row only one gets it back from RETURNING.
   */
  async claimBackchannelLogouts(claim: BackchannelLogoutClaim): Promise<BackchannelLogout[]> {
    const $ = this.placeholder;
    const now = claim.now.getTime();
    const due = (await this.manager.query(
      `SELECT id FROM backchannel_logouts
       WHERE state = 'pending' AND next_attempt_at <= ${$(1)} AND (lease_until IS NULL OR lease_until <= ${$(2)})
       ORDER BY next_attempt_at, id LIMIT ${$(3)}`,
      [now, now, claim.limit],
    )) as Array<{ id: string | number }>;
    if (due.length === 0) return [];
    const won = await this.manager.query(
      `UPDATE backchannel_logouts SET lease_until = ${$(1)}
       WHERE state = 'pending' AND (lease_until IS NULL OR lease_until <= ${$(2)})
         AND id IN (${due.map((_, i) => $(i + 3)).join(', ')})
       RETURNING id`,
      [claim.leaseUntil.getTime(), now, ...due.map((row) => Number(row.id))],
    );
    const rows = await this.manager.find(BackchannelLogoutEntity, {
      where: { id: In(rowsOf(won).map((row) => Number(row.id))) },
      order: { nextAttemptAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toLogout);
  }

  async recordBackchannelLogoutAttempts(results: BackchannelLogoutAttemptResult[]): Promise<void> {
    const $ = this.placeholder;
    for (const result of results) {
      await this.manager.query(
        `UPDATE backchannel_logouts SET attempts = attempts + 1, state = ${$(1)}, next_attempt_at = ${$(2)},
           lease_until = NULL, last_status = ${$(3)}, last_error = ${$(4)} WHERE id = ${$(5)}`,
        [result.state, result.nextAttemptAt.getTime(), result.status, result.error, result.id],
      );
    }
  }

  async listBackchannelLogoutsOfSession(sid: string): Promise<BackchannelLogout[]> {
    const rows = await this.manager.find(BackchannelLogoutEntity, { where: { sid }, order: { id: 'ASC' } });
    return rows.map(toLogout);
  }

  pruneBackchannelLogouts(before: Date, limit: number): Promise<number> {
    return pruneBatch(
      this.manager,
      BackchannelLogoutEntity,
      'id',
      `SELECT id FROM backchannel_logouts WHERE state IN ('succeeded', 'dead') AND next_attempt_at <= :before LIMIT :limit`,
      { before: before.getTime(), limit },
    );
  }
}

/** The rows of an UPDATE ... RETURNING: Postgres answers [rows, count], SQLite the rows. */
function rowsOf(result: unknown): Array<{ id: string | number }> {
  const rows = Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) ? result[0] : result;
  return rows as Array<{ id: string | number }>;
}

function toLogout(row: BackchannelLogoutEntity): BackchannelLogout {
  return { ...row, state: row.state as BackchannelLogoutState };
}
