import type { Revocation, RevocationInput, RevocationKind, RevocationStore } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { RevocationEntity } from '../entities/revocation.entity';
import { inFeedOrder } from './feed-order';
import { pruneBatch } from './prune-batch';

export class TypeOrmRevocationStore implements RevocationStore {
  constructor(private readonly manager: EntityManager) {}

  async addRevocations(entries: RevocationInput[], now: Date): Promise<Revocation[]> {
    if (entries.length === 0) return [];
    const rows = entries.map(({ kind, value, expiresAt }) => ({ kind, value, expiresAt, createdAt: now }));
    // One multi-row INSERT; seqs come back in row order. insert() also writes them into `rows`,
    // as strings on pg (bigint), so the answer is built from the identifiers instead.
    const { identifiers } = await inFeedOrder(this.manager, 'revocations', (m) =>
      m.insert(RevocationEntity, rows),
    );
    return entries.map(({ kind, value, expiresAt }, i) => ({
      seq: Number(identifiers[i].seq),
      kind,
      value,
      expiresAt,
      createdAt: now,
    }));
  }

  async listRevocationsAfter(afterSeq: number, limit: number): Promise<Revocation[]> {
    const rows = await this.manager
      .createQueryBuilder(RevocationEntity, 'r')
      .where('r.seq > :afterSeq', { afterSeq })
      .orderBy('r.seq', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map(toRevocation);
  }

  async lastRevocationSeq(): Promise<number> {
    const row = (await this.manager
      .createQueryBuilder(RevocationEntity, 'r')
      .select('MAX(r.seq)', 'last')
      .getRawOne()) as { last: number | string | null } | undefined;
    return Number(row?.last ?? 0);
  }

  async listActiveRevocations(now: Date): Promise<Revocation[]> {
    const rows = await this.manager
      .createQueryBuilder(RevocationEntity, 'r')
      .where('r.expiresAt > :now', { now: now.getTime() })
      .orderBy('r.seq', 'ASC')
      .getMany();
    return rows.map(toRevocation);
  }

  async findActiveRevocations(
    keys: Array<{ kind: RevocationKind; value: string }>,
    now: Date,
  ): Promise<Revocation[]> {
    if (keys.length === 0) return [];
    // One query; each (kind, value) pair is served by idx_revocations_kind_value.
    const params: Record<string, string | number> = { now: now.getTime() };
    const matches = keys.map((key, i) => {
      params[`kind${i}`] = key.kind;
      params[`value${i}`] = key.value;
      return `(r.kind = :kind${i} AND r.value = :value${i})`;
    });
    const rows = await this.manager
      .createQueryBuilder(RevocationEntity, 'r')
      .where(`(${matches.join(' OR ')})`)
      .andWhere('r.expiresAt > :now')
      .setParameters(params)
      .orderBy('r.seq', 'ASC')
      .getMany();
    return rows.map(toRevocation);
  }

  pruneRevocations(now: Date, limit: number): Promise<number> {
    return pruneBatch(
      this.manager,
      RevocationEntity,
      'seq',
      'SELECT seq FROM revocations WHERE expires_at <= :now LIMIT :limit',
      { now: now.getTime(), limit },
    );
  }
}

function toRevocation(row: RevocationEntity): Revocation {
  return {
    seq: row.seq,
    kind: row.kind as RevocationKind,
    value: row.value,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
  };
}
