import type { AssertionReplayStore, AssertionUse } from '../clients/assertion-replays';
import type { FederatedIssuer, FederatedIssuerStore } from '../federation/workload-federation';
import type { InsertResult } from '../storage';

const copy = <T>(value: T): T => structuredClone(value);

/** Used assertions of the unit specs, as the contract in the interface says. */
export class InMemoryAssertionReplayStore implements AssertionReplayStore {
  private rows = new Map<string, Date>();

  async rememberAssertions(uses: AssertionUse[]): Promise<string[]> {
    const fresh: string[] = [];
    for (const use of uses) {
      if (this.rows.has(use.key)) continue;
      this.rows.set(use.key, new Date(use.expiresAt));
      fresh.push(use.key);
    }
    return fresh;
  }

  async pruneAssertions(before: Date, limit: number): Promise<number> {
    const gone = [...this.rows].filter(([, expiresAt]) => expiresAt <= before).slice(0, limit);
    for (const [key] of gone) this.rows.delete(key);
    return gone.length;
  }

  snapshot(): unknown {
    return new Map(this.rows);
  }

  restore(state: unknown): void {
    this.rows = new Map(state as Map<string, Date>);
  }
}

/** Trusted issuers of the unit specs, as the contract in the interface says. */
export class InMemoryFederatedIssuerStore implements FederatedIssuerStore {
  private rows = new Map<string, FederatedIssuer>();

  async insertFederatedIssuer(issuer: FederatedIssuer): Promise<InsertResult> {
    const taken = [...this.rows.values()].some(
      (row) => row.id === issuer.id || (row.tenant === issuer.tenant && row.issuer === issuer.issuer),
    );
    if (taken) return 'duplicate';
    this.rows.set(issuer.id, copy(issuer));
    return 'created';
  }

  async findFederatedIssuer(tenant: string, id: string): Promise<FederatedIssuer | null> {
    const row = this.rows.get(id);
    return row?.tenant === tenant ? copy(row) : null;
  }

  async listFederatedIssuers(tenant: string): Promise<FederatedIssuer[]> {
    return [...this.rows.values()]
      .filter((row) => row.tenant === tenant)
      .sort((a, b) => (a.issuer < b.issuer ? -1 : a.issuer > b.issuer ? 1 : 0))
      .map(copy);
  }

  async findFederatedIssuersByIssuer(issuer: string): Promise<FederatedIssuer[]> {
    return [...this.rows.values()].filter((row) => row.issuer === issuer).map(copy);
  }

  async updateFederatedIssuer(issuer: FederatedIssuer): Promise<boolean> {
    const row = this.rows.get(issuer.id);
    if (row?.tenant !== issuer.tenant) return false;
    this.rows.set(issuer.id, {
      ...row,
      jwksUri: issuer.jwksUri,
      rules: copy(issuer.rules),
      updatedAt: issuer.updatedAt,
    });
    return true;
  }

  async deleteFederatedIssuer(tenant: string, id: string): Promise<boolean> {
    if (this.rows.get(id)?.tenant !== tenant) return false;
    return this.rows.delete(id);
  }

  snapshot(): unknown {
    return copy([...this.rows]);
  }

  restore(state: unknown): void {
    this.rows = new Map(copy(state as Array<[string, FederatedIssuer]>));
  }
}
