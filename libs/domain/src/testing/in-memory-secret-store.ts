import type { SealedValue } from '../secrets/envelope';
import type { SecretStore, SecretVersion } from '../secrets/secret';

const copy = <T>(value: T): T => structuredClone(value);
/** As the databases order names (ASCII: code units are code points). */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const of = (tenant: string, name: string) => (v: SecretVersion) => v.tenant === tenant && v.name === name;

export class InMemorySecretStore implements SecretStore {
  private rows: SecretVersion[] = [];

  async insertSecretVersion(version: SecretVersion): Promise<boolean> {
    if (this.rows.some((v) => of(version.tenant, version.name)(v) && v.version === version.version))
      return false;
    this.rows.push(copy(version));
    return true;
  }

  async findSecretVersion(tenant: string, name: string, version: number): Promise<SecretVersion | null> {
    const found = this.rows.find((v) => of(tenant, name)(v) && v.version === version);
    return found ? copy(found) : null;
  }

  async latestSecretVersion(tenant: string, name: string): Promise<SecretVersion | null> {
    return (await this.listSecretVersions(tenant, name)).pop() ?? null;
  }

  async listSecretVersions(tenant: string, name: string): Promise<SecretVersion[]> {
    return this.rows
      .filter(of(tenant, name))
      .sort((a, b) => a.version - b.version)
      .map(copy);
  }

  async listSecretNames(tenant: string, after: string, limit: number): Promise<string[]> {
    const names = new Set(this.rows.filter((v) => v.tenant === tenant && v.name > after).map((v) => v.name));
    return [...names].sort().slice(0, limit);
  }

  async updateSecretVersions(
    tenant: string,
    name: string,
    versions: readonly number[],
    change: { deletedAt?: Date | null; destroyed?: true },
  ): Promise<number> {
    const hit = this.rows.filter((v) => of(tenant, name)(v) && versions.includes(v.version));
    for (const row of hit) {
      if (change.deletedAt !== undefined) row.deletedAt = change.deletedAt && new Date(change.deletedAt);
      if (change.destroyed) Object.assign(row, { destroyed: true, sealed: null });
    }
    return hit.length;
  }

  async deleteSecret(tenant: string, name: string): Promise<boolean> {
    const before = this.rows.length;
    this.rows = this.rows.filter((v) => !of(tenant, name)(v));
    return this.rows.length < before;
  }

  async listSealedOutside(kekId: string, limit: number): Promise<SecretVersion[]> {
    return this.rows
      .filter((v) => v.sealed !== null && v.sealed.kekId !== kekId)
      .sort((a, b) => compareText(a.tenant, b.tenant) || compareText(a.name, b.name) || a.version - b.version)
      .slice(0, limit)
      .map(copy);
  }

  async rewrapSecretVersion(
    tenant: string,
    name: string,
    version: number,
    sealed: SealedValue,
  ): Promise<void> {
    const row = this.rows.find((v) => of(tenant, name)(v) && v.version === version);
    if (row?.sealed) row.sealed = copy(sealed);
  }

  snapshot(): unknown {
    return copy(this.rows);
  }

  restore(state: unknown): void {
    this.rows = state as SecretVersion[];
  }
}
