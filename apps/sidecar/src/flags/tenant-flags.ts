import { Injectable } from '@nestjs/common';
import { FLAG_SET, flagEvaluator } from '@platform/domain';
import { DefinitionSync } from '../definitions/definition-sync';

type Evaluator = ReturnType<typeof flagEvaluator>;

/**
 * Each tenant's flags as flagd-core evaluators, built from the definitions this sidecar follows
 * and rebuilt when their version moves (a change applies within a second, docs/flags.md).
 */
@Injectable()
export class TenantFlags {
  private readonly evaluators = new Map<string, { version: number; evaluator: Evaluator }>();

  constructor(private readonly definitions: DefinitionSync) {}

  get loaded(): boolean {
    return this.definitions.isLoaded;
  }

  /** The tenant's evaluator; undefined when it has no flags. */
  of(tenant: string): Evaluator | undefined {
    const definition = this.definitions.find('flags', tenant, FLAG_SET);
    if (!definition?.document) {
      this.evaluators.delete(tenant);
      return undefined;
    }
    const cached = this.evaluators.get(tenant);
    if (cached?.version === definition.version) return cached.evaluator;
    const evaluator = flagEvaluator(definition.document);
    this.evaluators.set(tenant, { version: definition.version, evaluator });
    return evaluator;
  }
}
