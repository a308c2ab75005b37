import type { AuditActor, AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { DefinitionStore, ServiceDefinition } from '../definitions/service-definition';
import { notFound, validationFailed } from '../errors';
import type { Transactor } from '../storage';
import { type CustomPattern, MaskingEngine } from './masking-engine';

/** A tenant's masking settings: the custom patterns every MaskString and Mask of it applies. */
export interface MaskingSettings {
  custom_patterns: CustomPattern[];
}

const SETTINGS = 'settings';
const TENANT = /^[A-Za-z0-9._-]{1,64}$/;
/** Checks patterns exactly as a request's are checked (length, safe-regex, empty match). */
const checker = new MaskingEngine(() => Buffer.alloc(32));

export function readMaskingSettings(document: unknown): MaskingSettings {
  const patterns = (document as { custom_patterns?: unknown } | null)?.custom_patterns;
  if (!Array.isArray(patterns)) throw validationFailed('custom_patterns must be an array of {name, regex}');
  const customPatterns = patterns.map((p: unknown, i) => {
    const { name, regex } = (typeof p === 'object' && p !== null ? p : {}) as Record<string, unknown>;
    if (typeof name !== 'string' || typeof regex !== 'string') {
      throw validationFailed(`custom_patterns[${i}] needs a name and a regex`);
    }
    return { name, regex };
  });
  checker.prepare('', { customPatterns });
  return { custom_patterns: customPatterns };
}

/** Each tenant's masking settings, as admins manage them (docs/masking.md); audited. */
export class MaskingSettingsRegistry {
  constructor(
    private readonly definitions: Pick<DefinitionStore, 'findDefinition'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  put(actor: AuditActor, tenant: string, document: unknown): Promise<ServiceDefinition> {
    checkTenant(tenant);
    return this.write(actor, tenant, { ...readMaskingSettings(document) }, 'masking.settings_changed');
  }

  async get(tenant: string): Promise<ServiceDefinition> {
    checkTenant(tenant);
    const found = await this.definitions.findDefinition('masking', tenant, SETTINGS);
    if (!found) throw notFound(`masking settings of tenant ${tenant}`);
    return found;
  }

  async delete(actor: AuditActor, tenant: string): Promise<void> {
    await this.get(tenant);
    await this.write(actor, tenant, null, 'masking.settings_deleted');
  }

  private write(actor: AuditActor, tenant: string, document: Record<string, unknown> | null, action: string) {
    const now = this.clock.now();
    return this.transactor.inTransaction(async (stores) => {
      const written = await stores.definitions.putDefinition(
        { kind: 'masking', tenant, name: SETTINGS, document },
        now,
      );
      await stores.audit.appendAuditRecords([
        this.trail.record({
          actor,
          action,
          target: tenant,
          tenant,
          attributes: { version: String(written.version) },
          occurredAt: now,
        }),
      ]);
      return written;
    });
  }
}

function checkTenant(tenant: string): void {
  if (!TENANT.test(tenant)) throw validationFailed('tenant must be 1 to 64 of A-Z a-z 0-9 . _ -');
}
