/**
 * A definition a sidecar service runs on, owned by the control plane and copied to every sidecar
 * (rate limit rules: docs/rate-limits.md; flags: docs/flags.md; masking settings:
 * docs/masking.md; plans and subscriptions: docs/plans.md): one document per (kind, tenant,
 * name).
 */
export type DefinitionKind = 'rate_limits' | 'flags' | 'masking' | 'plans' | 'subscriptions';

/** The tenant of the definitions that belong to no tenant (plans): no tenant name can be it. */
export const PLATFORM_WIDE = '*';

export interface ServiceDefinition {
  kind: DefinitionKind;
  tenant: string;
  name: string;
  /** null: deleted (kept as a tombstone, so a sidecar following the feed learns of it). */
  document: Record<string, unknown> | null;
  /** 1 for the first write, one more for each. */
  version: number;
  /** Position in the feed of every definition change, ascending in commit order. */
  seq: number;
  updatedAt: Date;
}

/** One change of a definition as the feed carries it to sidecars (`document: null`: deleted). */
export interface DefinitionChange {
  seq: number;
  kind: string;
  tenant: string;
  name: string;
  version: number;
  document: Record<string, unknown> | null;
}

export function toDefinitionChange(d: ServiceDefinition): DefinitionChange {
  return {
    seq: d.seq,
    kind: d.kind,
    tenant: d.tenant,
    name: d.name,
    version: d.version,
    document: d.document,
  };
}

export interface DefinitionStore {
  /** Writes (a null document deletes) with the next seq; answers the stored definition. */
  putDefinition(
    definition: Pick<ServiceDefinition, 'kind' | 'tenant' | 'name' | 'document'>,
    now: Date,
  ): Promise<ServiceDefinition>;
  findDefinition(kind: DefinitionKind, tenant: string, name: string): Promise<ServiceDefinition | null>;
  /** The live definitions of a tenant, ordered by name. */
  listDefinitions(kind: DefinitionKind, tenant: string): Promise<ServiceDefinition[]>;
  /** Every change with seq > `afterSeq`, tombstones included, ascending, at most `limit`. */
  listDefinitionsAfter(afterSeq: number, limit: number): Promise<ServiceDefinition[]>;
}
