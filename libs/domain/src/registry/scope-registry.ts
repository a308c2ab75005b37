import { OIDC_SCOPES } from '../oidc/oidc-scopes';
import type { Clock } from '../clock';
import { conflict, validationFailed } from '../errors';
import { isServiceOnlyScope } from '../authority/reserved-scopes';
import { SCOPE_PATTERN, scopeCovers, STANDARD_SCOPES } from '../scopes';
import { PLATFORM_ACTOR, type AuditActor, type AuditTrail } from '../audit/audit-trail';
import type { Transactor } from '../storage';
import type { ScopeStore } from './scope-definition';

export interface ScopeDescription {
  name: string;
  description: string;
}

export interface ScopeView {
  name: string;
  description: string;
  standard: boolean;
  createdAt: Date | null;
}

/** Standard scopes from the spec's table plus custom scopes defined by admins. */
export class ScopeRegistry {
  constructor(
    private readonly scopes: Pick<ScopeStore, 'listScopes'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /** Defines a custom scope and audits it (`scope.defined`) in one transaction. */
  async define(name: string, description: string, actor: AuditActor = PLATFORM_ACTOR): Promise<ScopeView> {
    if (!SCOPE_PATTERN.test(name) || name.length > 128) {
      throw validationFailed('name must be resource.action in lower case, for example reports.read');
    }
    if (description.trim().length === 0 || description.length > 500) {
      throw validationFailed('description must be 1 to 500 characters');
    }
    if (STANDARD_SCOPES.some((s) => s.name === name)) throw conflict(`${name} is a standard scope`);
    const createdAt = this.clock.now();
    await this.transactor.inTransaction(async (stores) => {
      if ((await stores.scopes.insertScope({ name, description, createdAt })) === 'duplicate') {
        throw conflict(`scope ${name} is already defined`);
      }
      await stores.audit.appendAuditRecords([
        this.trail.record({ actor, action: 'scope.defined', target: name, occurredAt: createdAt }),
      ]);
    });
    return { name, description, standard: false, createdAt };
  }

  async list(): Promise<ScopeView[]> {
    const custom = await this.scopes.listScopes();
    return [
      ...STANDARD_SCOPES.map((s) => ({ ...s, standard: true, createdAt: null })),
      ...custom.map((s) => ({ ...s, standard: false })),
    ];
  }

  async definedNames(): Promise<string[]> {
    return (await this.list()).map((s) => s.name);
  }

  /**
   * What each scope means, for the consent screen. A scope that is not itself defined borrows
   * the description of the wildcard covering it, and a wildcard lists what it covers (`jobs.*`:
   * reading and managing jobs, never the service-only `jobs.work` no user is granted).
   */
  async describe(names: readonly string[]): Promise<ScopeDescription[]> {
    const defined = await this.list();
    const describeOne = (name: string): string =>
      OIDC_SCOPES.find((d) => d.name === name)?.description ??
      defined.find((d) => d.name === name)?.description ??
      defined.find((d) => scopeCovers(d.name, name))?.description ??
      defined
        .filter((d) => scopeCovers(name, d.name) && !isServiceOnlyScope(d.name))
        .map((d) => d.description)
        .join('; ');
    return names.map((name) => ({ name, description: describeOne(name) }));
  }
}
