import type {
  AssertionReplayStore,
  AssertionUse,
  FederatedIssuer,
  FederatedIssuerStore,
  FederationRule,
  InsertResult,
} from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { AssertionUseEntity, FederatedIssuerEntity } from '../entities/federation.entity';
import { insertOnce } from './insert-once';
import { pruneBatch } from './prune-batch';
import { placeholderFor, valuesList, type Placeholder } from './raw-sql';

/** Rows of one INSERT at most (bound parameters stay well under every driver's limit). */
const INSERT_CHUNK = 500;

export class TypeOrmAssertionReplayStore implements AssertionReplayStore {
  private readonly placeholder: Placeholder;

  constructor(private readonly manager: EntityManager) {
    this.placeholder = placeholderFor(manager);
  }

  /**
   * One `INSERT ... ON CONFLICT DO NOTHING RETURNING` per chunk: the unique key decides, on both
   * databases and across replicas, and the rows it answers are the keys that were new.
   */
  async rememberAssertions(uses: AssertionUse[]): Promise<string[]> {
    const fresh: string[] = [];
    for (let start = 0; start < uses.length; start += INSERT_CHUNK) {
      const chunk = uses.slice(start, start + INSERT_CHUNK);
      const rows = (await this.manager.query(
        `INSERT INTO assertion_uses (assertion_key, expires_at) VALUES ${valuesList(this.placeholder, chunk.length, 2)} ON CONFLICT (assertion_key) DO NOTHING RETURNING assertion_key`,
        chunk.flatMap((use) => [use.key, use.expiresAt.getTime()]),
      )) as Array<{ assertion_key: string }>;
      for (const row of rows) fresh.push(row.assertion_key);
    }
    return fresh;
  }

  pruneAssertions(before: Date, limit: number): Promise<number> {
    return pruneBatch(
      this.manager,
      AssertionUseEntity,
      'assertion_key',
      'SELECT assertion_key FROM assertion_uses WHERE expires_at <= :before LIMIT :limit',
      { before: before.getTime(), limit },
    );
  }
}

export class TypeOrmFederatedIssuerStore implements FederatedIssuerStore {
  constructor(private readonly manager: EntityManager) {}

  insertFederatedIssuer(issuer: FederatedIssuer): Promise<InsertResult> {
    return insertOnce(this.manager, FederatedIssuerEntity, toRow(issuer));
  }

  async findFederatedIssuer(tenant: string, id: string): Promise<FederatedIssuer | null> {
    const row = await this.manager.findOneBy(FederatedIssuerEntity, { tenant, id });
    return row && fromRow(row);
  }

  async listFederatedIssuers(tenant: string): Promise<FederatedIssuer[]> {
    const rows = await this.manager.find(FederatedIssuerEntity, {
      where: { tenant },
      order: { issuer: 'ASC' },
    });
    return rows.map(fromRow);
  }

  async findFederatedIssuersByIssuer(issuer: string): Promise<FederatedIssuer[]> {
    const rows = await this.manager.findBy(FederatedIssuerEntity, { issuer });
    return rows.map(fromRow);
  }

  async updateFederatedIssuer(issuer: FederatedIssuer): Promise<boolean> {
    const result = await this.manager.update(
      FederatedIssuerEntity,
      { tenant: issuer.tenant, id: issuer.id },
      { jwksUri: issuer.jwksUri, rules: JSON.stringify(issuer.rules), updatedAt: issuer.updatedAt },
    );
    return (result.affected ?? 0) > 0;
  }

  async deleteFederatedIssuer(tenant: string, id: string): Promise<boolean> {
    const result = await this.manager.delete(FederatedIssuerEntity, { tenant, id });
    return (result.affected ?? 0) > 0;
  }
}

function toRow(issuer: FederatedIssuer): FederatedIssuerEntity {
  return { ...issuer, rules: JSON.stringify(issuer.rules) };
}

function fromRow(row: FederatedIssuerEntity): FederatedIssuer {
  return {
    id: row.id,
    tenant: row.tenant,
    issuer: row.issuer,
    jwksUri: row.jwksUri,
    rules: JSON.parse(row.rules) as FederationRule[],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
