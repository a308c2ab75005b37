import type { AuditActor, AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import { notFound, validationFailed } from '../errors';
import type { Transactor } from '../storage';
import { PLATFORM_WIDE, type DefinitionKind, type DefinitionStore, type ServiceDefinition } from './service-definition';

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** What distinguishes one kind of definition: how a document is read, and how it is audited. */
export interface DefinitionRules {
  kind: DefinitionKind;
  /** What it is called in messages: `rate limit rules`, `flag definitions`. */
  noun: string;
  /** The document, checked (`validation_failed` saying what is wrong), as it is stored. */
  read(document: unknown): Record<string, unknown>;
  /** The audit actions of a write and of a deletion. */
  actions: { changed: string; deleted: string };
  /** The platform's, not a tenant's (plans): kept under PLATFORM_WIDE, audited without a tenant. */
  platformWide?: true;
}

/**
 * The definitions admins manage for the sidecar services (rate limit rules, flags, masking
 * settings): checked by their kind's rules, stored as definitions every sidecar follows (a new
 * version each write, a tombstone on deletion), audited in the same transaction.
 */
export class DefinitionRegistry {
  constructor(
    private readonly rules: DefinitionRules,
    private readonly definitions: Pick<DefinitionStore, 'findDefinition' | 'listDefinitions'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
    /** Told after each committed write (the control plane pushes it to the sidecars at once). */
    private readonly onCommitted: () => void = () => undefined,
  ) {}

  put(actor: AuditActor, tenant: string, name: string, document: unknown): Promise<ServiceDefinition> {
    checkNames(tenant, name, this.rules.platformWide);
    return this.write(actor, tenant, name, this.rules.read(document), this.rules.actions.changed);
  }

  async get(tenant: string, name: string): Promise<ServiceDefinition> {
    checkNames(tenant, name, this.rules.platformWide);
    const found = await this.definitions.findDefinition(this.rules.kind, tenant, name);
    if (!found) throw notFound(`${this.rules.noun} ${name} of tenant ${tenant}`);
    return found;
  }

  list(tenant: string): Promise<ServiceDefinition[]> {
    checkNames(tenant, 'any', this.rules.platformWide);
    return this.definitions.listDefinitions(this.rules.kind, tenant);
  }

  async delete(actor: AuditActor, tenant: string, name: string): Promise<void> {
    await this.get(tenant, name);
    await this.write(actor, tenant, name, null, this.rules.actions.deleted);
  }

  private async write(
    actor: AuditActor,
    tenant: string,
    name: string,
    document: Record<string, unknown> | null,
    action: string,
  ): Promise<ServiceDefinition> {
    const now = this.clock.now();
    const written = await this.transactor.inTransaction(async (stores) => {
      const stored = await stores.definitions.putDefinition(
        { kind: this.rules.kind, tenant, name, document },
        now,
      );
      await stores.audit.appendAuditRecords([
        this.trail.record({
          actor,
          action,
          target: name,
          tenant: this.rules.platformWide ? null : tenant,
          attributes: { version: String(stored.version) },
          occurredAt: now,
        }),
      ]);
      return stored;
    });
    this.onCommitted();
    return written;
  }
}

function checkNames(tenant: string, name: string, platformWide = false): void {
  if (platformWide ? tenant !== PLATFORM_WIDE : !NAME.test(tenant)) throw validationFailed('tenant must be 1 to 64 of A-Z a-z 0-9 . _ -');
  if (!NAME.test(name)) throw validationFailed('the name must be 1 to 64 of A-Z a-z 0-9 . _ -');
}
