import type { RefreshTokenRecord, RefreshTokenStore, SessionGrant } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { RefreshTokenEntity } from '../entities/refresh-token.entity';
import { pruneBatch } from './prune-batch';
import { sessionColumns, sessionOf } from './session-stamp';

export class TypeOrmRefreshTokenStore implements RefreshTokenStore {
  constructor(private readonly manager: EntityManager) {}

  async insertRefreshToken(token: RefreshTokenRecord): Promise<void> {
    const { session, dpopJkt, ...columns } = token;
    await this.manager.insert(RefreshTokenEntity, {
      ...columns,
      ...sessionColumns(session),
      dpopJkt: dpopJkt ?? null,
    });
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | null> {
    const row = await this.manager.findOneBy(RefreshTokenEntity, { tokenHash });
    return row && toRefreshToken(row);
  }

  async markRefreshTokenRotated(tokenHash: string, now: Date): Promise<boolean> {
    // Conditional UPDATE: of two concurrent rotations the database lets exactly one through.
    const result = await this.manager
      .createQueryBuilder()
      .update(RefreshTokenEntity)
      .set({ rotatedAt: now })
      .where('token_hash = :tokenHash AND rotated_at IS NULL AND revoked_at IS NULL', { tokenHash })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  revokeRefreshTokenFamily(grantId: string, now: Date): Promise<number> {
    return this.revokeAll('grant_id', grantId, now);
  }

  revokeRefreshTokensOfClient(clientId: string, now: Date): Promise<number> {
    return this.revokeAll('client_id', clientId, now);
  }

  revokeRefreshTokensOfUser(userId: string, now: Date): Promise<number> {
    return this.revokeAll('user_id', userId, now);
  }

  async findLiveRefreshTokens(userId: string, clientId: string, now: Date): Promise<RefreshTokenRecord[]> {
    const rows = await this.manager
      .createQueryBuilder(RefreshTokenEntity, 'r')
      .where('r.user_id = :userId AND r.client_id = :clientId', { userId, clientId })
      .andWhere('r.rotated_at IS NULL AND r.revoked_at IS NULL AND r.expires_at > :now', {
        now: now.getTime(),
      })
      .getMany();
    return rows.map(toRefreshToken);
  }

  async listSessionGrants(sid: string, now: Date): Promise<SessionGrant[]> {
    // By the sid index; a family's newest live token speaks for it (a refresh may narrow the scope).
    const rows = await this.manager
      .createQueryBuilder(RefreshTokenEntity, 'r')
      .where('r.sid = :sid AND r.revoked_at IS NULL AND r.expires_at > :now', { sid, now: now.getTime() })
      .orderBy('r.grant_id', 'ASC')
      .addOrderBy('r.created_at', 'DESC')
      .getMany();
    const grants = new Map<string, SessionGrant>();
    for (const row of rows) {
      if (!grants.has(row.grantId)) {
        grants.set(row.grantId, {
          grantId: row.grantId,
          clientId: row.clientId,
          userId: row.userId,
          scopes: row.scopes,
        });
      }
    }
    return [...grants.values()];
  }

  pruneRefreshTokens(before: Date, limit: number): Promise<number> {
    // Expired tokens by the expiry index, each kept while a token of its grant (the family's
    // newest) is still within `before`: found by the grant index.
    return pruneBatch(
      this.manager,
      RefreshTokenEntity,
      'token_hash',
      `SELECT r.token_hash FROM refresh_tokens r WHERE r.expires_at <= :before
         AND NOT EXISTS (SELECT 1 FROM refresh_tokens l WHERE l.grant_id = r.grant_id AND l.expires_at > :before)
       LIMIT :limit`,
      { before: before.getTime(), limit },
    );
  }

  /**
   * Revokes every unrevoked token with `column = key` and answers how many were live (neither
   * rotated nor revoked). Rotated ones are marked too, so a later look-up shows the revocation.
   */
  private async revokeAll(
    column: 'grant_id' | 'client_id' | 'user_id',
    key: string,
    now: Date,
  ): Promise<number> {
    const live = await this.revokeWhere(
      `${column} = :key AND revoked_at IS NULL AND rotated_at IS NULL`,
      key,
      now,
    );
    await this.revokeWhere(`${column} = :key AND revoked_at IS NULL`, key, now);
    return live;
  }

  private async revokeWhere(condition: string, key: string, now: Date): Promise<number> {
    const result = await this.manager
      .createQueryBuilder()
      .update(RefreshTokenEntity)
      .set({ revokedAt: now })
      .where(condition, { key })
      .execute();
    return result.affected ?? 0;
  }
}

function toRefreshToken(row: RefreshTokenEntity): RefreshTokenRecord {
  return {
    tokenHash: row.tokenHash,
    grantId: row.grantId,
    clientId: row.clientId,
    userId: row.userId,
    scopes: row.scopes,
    createdAt: row.createdAt,
    familyCreatedAt: row.familyCreatedAt,
    expiresAt: row.expiresAt,
    rotatedAt: row.rotatedAt,
    revokedAt: row.revokedAt,
    ...sessionOf(row),
    ...(row.dpopJkt !== null && { dpopJkt: row.dpopJkt }),
  };
}
