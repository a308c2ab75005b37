import type { SealedValue, SecretStore, SecretVersion } from '@platform/domain';
import { type EntityManager, In, IsNull, Not } from 'typeorm';
import { SecretVersionEntity } from '../entities/secret-version.entity';
import { insertOnce } from './insert-once';

export class TypeOrmSecretStore implements SecretStore {
  constructor(private readonly manager: EntityManager) {}

  async insertSecretVersion(version: SecretVersion): Promise<boolean> {
    return (await insertOnce(this.manager, SecretVersionEntity, toRow(version))) === 'created';
  }

  async findSecretVersion(tenant: string, name: string, version: number): Promise<SecretVersion | null> {
    const row = await this.manager.findOneBy(SecretVersionEntity, { tenant, name, version });
    return row && toVersion(row);
  }

  async latestSecretVersion(tenant: string, name: string): Promise<SecretVersion | null> {
    const row = await this.manager.findOne(SecretVersionEntity, {
      where: { tenant, name },
      order: { version: 'DESC' },
    });
    return row && toVersion(row);
  }

  async listSecretVersions(tenant: string, name: string): Promise<SecretVersion[]> {
    const rows = await this.manager.find(SecretVersionEntity, {
      where: { tenant, name },
      order: { version: 'ASC' },
    });
    return rows.map(toVersion);
  }

  async listSecretNames(tenant: string, after: string, limit: number): Promise<string[]> {
    const rows = await this.manager
      .createQueryBuilder(SecretVersionEntity, 's')
      .select('s.name', 'name')
      .distinct(true)
      .where('s.tenant = :tenant AND s.name > :after', { tenant, after })
      .orderBy('s.name', 'ASC')
      .limit(limit)
      .getRawMany<{ name: string }>();
    return rows.map((row) => row.name);
  }

  async updateSecretVersions(
    tenant: string,
    name: string,
    versions: readonly number[],
    change: { deletedAt?: Date | null; destroyed?: true },
  ): Promise<number> {
    const set: Partial<SecretVersionEntity> = {};
    if (change.deletedAt !== undefined) set.deletedAt = change.deletedAt;
    if (change.destroyed)
      Object.assign(set, { destroyed: true, ciphertext: null, wrappedKey: null, kekId: null });
    const result = await this.manager.update(
      SecretVersionEntity,
      { tenant, name, version: In([...versions]) },
      set,
    );
    return result.affected ?? 0;
  }

  async deleteSecret(tenant: string, name: string): Promise<boolean> {
    const result = await this.manager.delete(SecretVersionEntity, { tenant, name });
    return (result.affected ?? 0) > 0;
  }

  async listSealedOutside(kekId: string, limit: number): Promise<SecretVersion[]> {
    const rows = await this.manager.find(SecretVersionEntity, {
      where: { kekId: Not(kekId), ciphertext: Not(IsNull()) },
      order: { tenant: 'ASC', name: 'ASC', version: 'ASC' },
      take: limit,
    });
    return rows.map(toVersion);
  }

  async rewrapSecretVersion(
    tenant: string,
    name: string,
    version: number,
    sealed: SealedValue,
  ): Promise<void> {
    await this.manager.update(
      SecretVersionEntity,
      { tenant, name, version, ciphertext: sealed.ciphertext },
      { wrappedKey: sealed.wrappedKey, kekId: sealed.kekId },
    );
  }
}

function toRow(version: SecretVersion): SecretVersionEntity {
  return {
    tenant: version.tenant,
    name: version.name,
    version: version.version,
    ciphertext: version.sealed?.ciphertext ?? null,
    wrappedKey: version.sealed?.wrappedKey ?? null,
    kekId: version.sealed?.kekId ?? null,
    createdAt: version.createdAt,
    deletedAt: version.deletedAt,
    destroyed: version.destroyed,
  };
}

function toVersion(row: SecretVersionEntity): SecretVersion {
  return {
    tenant: row.tenant,
    name: row.name,
    version: row.version,
    sealed:
      row.ciphertext !== null && row.wrappedKey !== null && row.kekId !== null
        ? { ciphertext: row.ciphertext, wrappedKey: row.wrappedKey, kekId: row.kekId }
        : null,
    createdAt: row.createdAt,
    deletedAt: row.deletedAt,
    destroyed: Boolean(row.destroyed),
  };
}
