import type {
  SamlIdentityProvider,
  SamlIdentityProviderStore,
  SamlRequestRecord,
  SamlRequestStore,
} from '../saml/saml-identity-provider';

const copy = <T>(value: T): T => structuredClone(value);

/** SAML identity providers of the unit specs, as the contract in the interface says. */
export class InMemorySamlIdentityProviderStore implements SamlIdentityProviderStore {
  private rows = new Map<string, SamlIdentityProvider>();

  async upsertSamlIdentityProvider(idp: SamlIdentityProvider): Promise<'created' | 'updated'> {
    const existed = this.rows.has(idp.tenant);
    this.rows.set(idp.tenant, copy(idp));
    return existed ? 'updated' : 'created';
  }

  async findSamlIdentityProvider(tenant: string): Promise<SamlIdentityProvider | null> {
    const row = this.rows.get(tenant);
    return row ? copy(row) : null;
  }

  async deleteSamlIdentityProvider(tenant: string): Promise<boolean> {
    return this.rows.delete(tenant);
  }

  snapshot(): unknown {
    return copy(this.rows);
  }

  restore(state: unknown): void {
    this.rows = copy(state as Map<string, SamlIdentityProvider>);
  }
}

/** AuthnRequests of the unit specs, as the contract in the interface says. */
export class InMemorySamlRequestStore implements SamlRequestStore {
  private rows = new Map<string, SamlRequestRecord>();

  async insertSamlRequest(request: SamlRequestRecord): Promise<void> {
    this.rows.set(request.id, copy(request));
  }

  async consumeSamlRequest(id: string, tenant: string, now: Date): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.tenant !== tenant || row.expiresAt <= now) return false;
    this.rows.delete(id);
    return true;
  }

  async pruneSamlRequests(before: Date, limit: number): Promise<number> {
    const gone = [...this.rows.values()].filter((row) => row.expiresAt <= before).slice(0, limit);
    for (const row of gone) this.rows.delete(row.id);
    return gone.length;
  }

  snapshot(): unknown {
    return copy(this.rows);
  }

  restore(state: unknown): void {
    this.rows = copy(state as Map<string, SamlRequestRecord>);
  }
}
