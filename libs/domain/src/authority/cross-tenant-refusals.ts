import type { AuditLog } from '../audit/audit-log';
import type { AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { PolicyPrincipal } from '../policy/policy';

/** A principal confined to one tenant refused in another. */
export interface CrossTenantRefusal {
  principal: PolicyPrincipal;
  action: string;
  /** The tenant it reached into. */
  tenant: string;
  /** The decision that refused, when a sidecar made it. */
  decisionId?: string;
}

export interface RefusalAuditSettings {
  /** One record per actor, action and tenant per window; the refusals in between are counted into the next. */
  windowMs: number;
  /** Windows tracked at once; beyond, a refusal is counted but not recorded rather than memory grown. */
  maxTracked: number;
}

export const DEFAULT_REFUSAL_AUDIT: RefusalAuditSettings = { windowMs: 60_000, maxTracked: 10_000 };

/**
 * Audits cross-tenant refusals (`authorization.cross_tenant_refused`) into the log of the tenant
 * that was reached into, so its auditors see the attempt. Rate-limited so that a flood cannot
 * fill the log: one record per actor, action and tenant per window, carrying how many refusals
 * it stands for (`refusals`).
 */
export class CrossTenantRefusalAuditor {
  private readonly windows = new Map<string, { opensAt: number; folded: number }>();
  /** Refusals no record has counted yet: dropped while every window was open, or evicted. */
  private unrecorded = 0;

  constructor(
    private readonly audit: Pick<AuditLog, 'append'>,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
    private readonly settings: RefusalAuditSettings = DEFAULT_REFUSAL_AUDIT,
  ) {}

  /**
   * Resolves once the record is written (`recorded`), or at once when the refusal is counted
   * into a later record (`folded`: its window is open; `unrecorded`: no room to track it).
   */
  async refused(refusal: CrossTenantRefusal): Promise<'recorded' | 'folded' | 'unrecorded'> {
    const { principal, action, tenant } = refusal;
    const actor = principal.kind === 'user' ? `user:${principal.id}` : `app:${principal.clientId}`;
    const key = `${actor}\n${action}\n${tenant}`;
    const now = this.clock.now().getTime();
    const window = this.windows.get(key);
    if (window !== undefined && now < window.opensAt) {
      window.folded += 1;
      return 'folded';
    }
    if (window === undefined && !this.makeRoom(now)) {
      this.unrecorded += 1;
      return 'unrecorded';
    }
    const refusals = 1 + (window?.folded ?? 0);
    this.windows.set(key, { opensAt: now + this.settings.windowMs, folded: 0 });
    await this.audit.append(
      this.trail.record({
        actor:
          principal.kind === 'user'
            ? { kind: 'user', id: principal.id }
            : { kind: 'app', id: principal.clientId },
        action: 'authorization.cross_tenant_refused',
        outcome: 'denied',
        tenant,
        target: action,
        attributes: {
          action,
          actor_tenant: principal.tenant ?? '',
          client_id: principal.clientId,
          refusals,
          ...(refusal.decisionId !== undefined && { decision_id: refusal.decisionId }),
          ...(this.unrecorded > 0 && { unrecorded_refusals: this.takeUnrecorded() }),
        },
      }),
    );
    return 'recorded';
  }

  /**
   * Forgets the windows that have passed (their folded refusals join the unrecorded count, told
   * by the next record); false when every tracked window is still open.
   */
  private makeRoom(now: number): boolean {
    if (this.windows.size < this.settings.maxTracked) return true;
    for (const [key, { opensAt, folded }] of this.windows) {
      if (opensAt > now) continue;
      this.unrecorded += folded;
      this.windows.delete(key);
    }
    return this.windows.size < this.settings.maxTracked;
  }

  private takeUnrecorded(): number {
    const unrecorded = this.unrecorded;
    this.unrecorded = 0;
    return unrecorded;
  }
}
