import type { QuotaConsumption, QuotaStore, QuotaUsage, UsageKey } from '../plans/quota-store';

const copy = <T>(value: T): T => structuredClone(value);

/** Quota usage and consumptions (docs/plans.md), as the contract suites expect of the database. */
export class InMemoryQuotaStore implements QuotaStore {
  private usage: QuotaUsage[] = [];
  private consumptions: QuotaConsumption[] = [];

  async lockUsage(key: UsageKey, periodEnd: Date, limit: number, now: Date): Promise<QuotaUsage> {
    const found = this.usage.find((u) => sameUsage(u, key));
    if (found) return copy(found);
    const created: QuotaUsage = { ...key, periodEnd, used: 0, limit, notified: [], updatedAt: now };
    this.usage.push(copy(created));
    return created;
  }

  async saveUsage(usage: QuotaUsage): Promise<void> {
    this.usage = [...this.usage.filter((u) => !sameUsage(u, usage)), copy(usage)];
  }

  async findConsumption(key: UsageKey, idempotencyKey: string): Promise<QuotaConsumption | null> {
    const found = this.consumptions.find((c) => sameUsage(c, key) && c.idempotencyKey === idempotencyKey);
    return found ? copy(found) : null;
  }

  async addConsumption(consumption: QuotaConsumption): Promise<void> {
    if (await this.findConsumption(consumption, consumption.idempotencyKey))
      throw new Error('duplicate consumption');
    this.consumptions.push(copy(consumption));
  }

  async findUsage(key: UsageKey): Promise<QuotaUsage | null> {
    const found = this.usage.find((u) => sameUsage(u, key));
    return found ? copy(found) : null;
  }

  async listUsage(tenant: string, meter: string, limit: number): Promise<QuotaUsage[]> {
    return this.usage
      .filter((u) => u.tenant === tenant && u.meter === meter)
      .sort((a, b) => b.periodStart.getTime() - a.periodStart.getTime())
      .slice(0, limit)
      .map(copy);
  }

  async pruneConsumptions(before: Date, limit: number): Promise<number> {
    const gone = this.consumptions.filter((c) => c.periodEnd < before).slice(0, limit);
    this.consumptions = this.consumptions.filter((c) => !gone.includes(c));
    return gone.length;
  }

  snapshot(): unknown {
    return copy({ usage: this.usage, consumptions: this.consumptions });
  }

  restore(state: unknown): void {
    ({ usage: this.usage, consumptions: this.consumptions } = state as {
      usage: QuotaUsage[];
      consumptions: QuotaConsumption[];
    });
  }
}

const sameUsage = (a: UsageKey, b: UsageKey) =>
  a.tenant === b.tenant && a.meter === b.meter && a.periodStart.getTime() === b.periodStart.getTime();
