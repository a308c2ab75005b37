import type { Provider } from '@nestjs/common';
import {
  AuditTrail,
  type Clock,
  DefinitionRegistry,
  type DefinitionRules,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { DefinitionFeed } from './definition-feed';
import { CLOCK, STORES, TRANSACTOR } from './tokens';

/** The DefinitionRegistry of one kind; each committed change is pushed to the sidecars at once. */
export function definitionRegistryProvider(rules: DefinitionRules): Provider {
  return {
    provide: DefinitionRegistry,
    useFactory: (
      stores: Stores,
      transactor: Transactor,
      trail: AuditTrail,
      clock: Clock,
      feed: DefinitionFeed,
    ) => new DefinitionRegistry(rules, stores.definitions, transactor, trail, clock, () => feed.wake()),
    inject: [STORES, TRANSACTOR, AuditTrail, CLOCK, DefinitionFeed],
  };
}
