import type { AuthorizationCodeRecord, AuthorizationCodeStore } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { AuthorizationCodeEntity } from '../entities/authorization-code.entity';
import { pruneBatch } from './prune-batch';
import { sessionColumns, sessionOf } from './session-stamp';

export class TypeOrmAuthorizationCodeStore implements AuthorizationCodeStore {
  constructor(private readonly manager: EntityManager) {}

  async insertAuthorizationCode(code: AuthorizationCodeRecord): Promise<void> {
    const { session, nonce, ...columns } = code;
    await this.manager.insert(AuthorizationCodeEntity, {
      ...columns,
      nonce: nonce ?? null,
      ...sessionColumns(session),
    });
  }

  async consumeAuthorizationCode(codeHash: string, now: Date): Promise<AuthorizationCodeRecord | null> {
    // The conditional UPDATE is the arbiter: the database lets exactly one caller flip
    // consumed_at, however many race.
    const result = await this.manager
      .createQueryBuilder()
      .update(AuthorizationCodeEntity)
      .set({ consumedAt: now })
      .where('code_hash = :codeHash AND consumed_at IS NULL', { codeHash })
      .execute();
    const won = (result.affected ?? 0) > 0;
    const row = await this.manager.findOneBy(AuthorizationCodeEntity, { codeHash });
    if (!row) return null;
    return toAuthorizationCode(row, won ? null : row.consumedAt);
  }

  pruneAuthorizationCodes(before: Date, limit: number): Promise<number> {
    return pruneBatch(
      this.manager,
      AuthorizationCodeEntity,
      'code_hash',
      'SELECT code_hash FROM authorization_codes WHERE expires_at <= :before LIMIT :limit',
      { before: before.getTime(), limit },
    );
  }
}

function toAuthorizationCode(row: AuthorizationCodeEntity, consumedAt: Date | null): AuthorizationCodeRecord {
  return {
    codeHash: row.codeHash,
    grantId: row.grantId,
    clientId: row.clientId,
    userId: row.userId,
    redirectUri: row.redirectUri,
    scopes: row.scopes,
    codeChallenge: row.codeChallenge,
    codeChallengeMethod: row.codeChallengeMethod as AuthorizationCodeRecord['codeChallengeMethod'],
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    consumedAt,
    ...(row.nonce !== null && { nonce: row.nonce }),
    ...sessionOf(row),
  };
}
