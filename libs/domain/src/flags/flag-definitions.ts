import { FlagdCore, MemoryStorage } from '@openfeature/flagd-core';
import type { AuditActor, AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import { notFound, validationFailed } from '../errors';
import type { DefinitionStore, ServiceDefinition } from '../definitions/service-definition';
import type { Transactor } from '../storage';

/** flagd-core logs what it tolerates; the platform reports through its own errors instead. */
const QUIET = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
};

/** Each tenant's flags are one flagd flag-definition document, under this definition name. */
const FLAG_SET = 'flags';
const TENANT = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The document, checked against flagd's own schemas (flags, variants, targeting JsonLogic with
 * `fractional`, `sem_ver`, `starts_with`): what is wrong is `validation_failed` with where.
 */
export function readFlagDefinitions(document: unknown): Record<string, unknown> {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw validationFailed('the flag definitions must be a flagd document: {"flags": {...}}');
  }
  try {
    new MemoryStorage(QUIET).setConfigurations(JSON.stringify(document), true);
  } catch (error) {
    throw validationFailed(describeSchemaError((error as Error).message));
  }
  return document as Record<string, unknown>;
}

/** An evaluator of one tenant's flags (flagd-core, evaluating locally). */
export function flagEvaluator(document: Record<string, unknown>): FlagdCore {
  const core = new FlagdCore(undefined, QUIET);
  core.setConfigurations(JSON.stringify(document));
  return core;
}

/** flagd-core's message is the ajv error list as JSON: the first error, as a path and a reason. */
function describeSchemaError(message: string): string {
  const json = message.slice(message.indexOf('['));
  try {
    const [first] = JSON.parse(json) as Array<{ instancePath: string; message: string; params?: object }>;
    return `not a valid flagd flag definition: ${first.instancePath || '/'} ${first.message}${
      first.params ? ` ${JSON.stringify(first.params)}` : ''
    }`;
  } catch {
    return `not a valid flagd flag definition: ${message}`;
  }
}

/**
 * Each tenant's flag definitions, as admins manage them (docs/flags.md): checked against flagd's
 * schema, stored as a definition every sidecar follows (a new version each write), audited.
 */
export class FlagDefinitionRegistry {
  constructor(
    private readonly definitions: Pick<DefinitionStore, 'findDefinition'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async put(actor: AuditActor, tenant: string, document: unknown): Promise<ServiceDefinition> {
    checkTenant(tenant);
    return this.write(actor, tenant, readFlagDefinitions(document), 'flags.changed');
  }

  async get(tenant: string): Promise<ServiceDefinition> {
    checkTenant(tenant);
    const found = await this.definitions.findDefinition('flags', tenant, FLAG_SET);
    if (!found) throw notFound(`flag definitions of tenant ${tenant}`);
    return found;
  }

  async delete(actor: AuditActor, tenant: string): Promise<void> {
    await this.get(tenant);
    await this.write(actor, tenant, null, 'flags.deleted');
  }

  private write(actor: AuditActor, tenant: string, document: Record<string, unknown> | null, action: string) {
    const now = this.clock.now();
    return this.transactor.inTransaction(async (stores) => {
      const written = await stores.definitions.putDefinition(
        { kind: 'flags', tenant, name: FLAG_SET, document },
        now,
      );
      const flags = Object.keys((document?.flags as object | undefined) ?? {});
      await stores.audit.appendAuditRecords([
        this.trail.record({
          actor,
          action,
          target: tenant,
          tenant,
          attributes: { version: String(written.version), flags: flags.join(' ') },
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
