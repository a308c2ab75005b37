/** One tenant's meter in one window. */
export interface UsageKey {
  tenant: string;
  meter: string;
  periodStart: Date;
}

/** What a window has counted: durable in the control plane (docs/plans.md, "Counting"). */
export interface QuotaUsage extends UsageKey {
  periodEnd: Date;
  used: number;
  /** The limit when it last counted (a plan may change mid-window; the history shows it). */
  limit: number;
  /** Threshold percentages already audited in this window: each is announced once. */
  notified: number[];
  updatedAt: Date;
}

/** One acknowledged consumption, kept until its window has ended, so a retry never counts twice. */
export interface QuotaConsumption extends UsageKey {
  /** Its window's end: kept a day past it (retention), as Redis keeps its keys. */
  periodEnd: Date;
  idempotencyKey: string;
  units: number;
  /** The window's count once this consumption was added: a retry answers the same. */
  usedAfter: number;
  recordedAt: Date;
}

export interface QuotaStore {
  /**
   * The window's usage, created at 0 if there is none, locked until the transaction ends (Postgres
   * row lock; SQLite has one writer), so concurrent consumers count one after another.
   */
  lockUsage(key: UsageKey, periodEnd: Date, limit: number, now: Date): Promise<QuotaUsage>;
  saveUsage(usage: QuotaUsage): Promise<void>;
  findConsumption(key: UsageKey, idempotencyKey: string): Promise<QuotaConsumption | null>;
  addConsumption(consumption: QuotaConsumption): Promise<void>;
  findUsage(key: UsageKey): Promise<QuotaUsage | null>;
  /** A meter's windows, newest first, at most `limit`. */
  listUsage(tenant: string, meter: string, limit: number): Promise<QuotaUsage[]>;
  /** Forgets consumptions of windows that ended before `before` (their keys can no longer recur). */
  pruneConsumptions(before: Date, limit: number): Promise<number>;
}
