import type { SessionRecord, SessionStore } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { SessionEntity } from '../entities/session.entity';
import { pruneBatch } from './prune-batch';

export class TypeOrmSessionStore implements SessionStore {
  constructor(private readonly manager: EntityManager) {}

  async insertSession(session: SessionRecord): Promise<void> {
    await this.manager.insert(SessionEntity, { ...session });
  }

  async findSession(sessionHash: string): Promise<SessionRecord | null> {
    const row = await this.manager.findOneBy(SessionEntity, { sessionHash });
    return row && toSession(row);
  }

  async endSession(sessionHash: string, now: Date): Promise<boolean> {
    // Conditional, so the first logout's time stays.
    const result = await this.manager
      .createQueryBuilder()
      .update(SessionEntity)
      .set({ endedAt: now })
      .where('session_hash = :sessionHash AND ended_at IS NULL', { sessionHash })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async endSessionsOfUser(userId: string, now: Date): Promise<number> {
    const result = await this.manager
      .createQueryBuilder()
      .update(SessionEntity)
      .set({ endedAt: now })
      .where('user_id = :userId AND ended_at IS NULL', { userId })
      .execute();
    return result.affected ?? 0;
  }

  pruneSessions(before: Date, limit: number): Promise<number> {
    return pruneBatch(
      this.manager,
      SessionEntity,
      'session_hash',
      'SELECT session_hash FROM sessions WHERE expires_at <= :before LIMIT :limit',
      { before: before.getTime(), limit },
    );
  }
}

function toSession(row: SessionEntity): SessionRecord {
  return {
    sessionHash: row.sessionHash,
    userId: row.userId,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    endedAt: row.endedAt,
  };
}
