import type { ImpersonationMode, ImpersonationPolicyStore } from '../impersonation/impersonation-policy';

export class InMemoryImpersonationPolicyStore implements ImpersonationPolicyStore {
  private rows = new Map<string, ImpersonationMode>();

  async findImpersonationPolicy(tenant: string): Promise<ImpersonationMode | null> {
    return this.rows.get(tenant) ?? null;
  }

  async putImpersonationPolicy(tenant: string, mode: ImpersonationMode): Promise<void> {
    this.rows.set(tenant, mode);
  }

  snapshot(): unknown {
    return new Map(this.rows);
  }

  restore(state: unknown): void {
    this.rows = state as Map<string, ImpersonationMode>;
  }
}
