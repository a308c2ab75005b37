import type { Revocation, RevocationInput, RevocationKind, RevocationStore } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { RevocationEntity } from '../entities/revocation.entity';
import { inFeedOrder } from './feed-order';
import { pruneBatch } from './prune-batch';
import { placeholderFor, type Placeholder } from './raw-sql';
import { epochMillis } from '../transformers';

/** A row of `revocations` as the driver returns it (bigint may come back as a string). */
interface RevocationRow {
  seq: number | string;
  kind: string;
  value: string;
  expires_at: number | string;
  created_at: number | string;
}

export class TypeOrmRevocationStore implements RevocationStore {
  private readonly placeholder: Placeholder;

  constructor(private readonly manager: EntityManager) {
    this.placeholder = placeholderFor(manager);
  }

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
    // Runs on every validation at the control plane (token exchange, its own API): plain SQL, as
    // the query builder costs more than the query. Each (kind, value) pair is served by
    // idx_revocations_kind_value.
    const matches = keys.map(
      (_, i) => `(kind = ${this.placeholder(2 * i + 1)} AND value = ${this.placeholder(2 * i + 2)})`,
    );
    const rows: RevocationRow[] = await this.manager.query(
      `SELECT seq, kind, value, expires_at, created_at FROM revocations
       WHERE (${matches.join(' OR ')}) AND expires_at > ${this.placeholder(2 * keys.length + 1)}
       ORDER BY seq ASC`,
      [...keys.flatMap(({ kind, value }) => [kind, value]), now.getTime()],
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      kind: row.kind as RevocationKind,
      value: row.value,
      expiresAt: epochMillis.from(row.expires_at) as Date,
      createdAt: epochMillis.from(row.created_at) as Date,
    }));
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
