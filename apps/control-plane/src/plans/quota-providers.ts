import type { Provider } from '@nestjs/common';
import {
  AuditTrail,
  type Clock,
  DefinitionRegistry,
  PLAN_DEFINITIONS,
  PlanAdministration,
  QuotaLedger,
  type Stores,
  SUBSCRIPTION_DEFINITIONS,
  type Transactor,
} from '@platform/domain';
import { DefinitionFeed } from '../platform/definition-feed';
import { CLOCK, STORES, TRANSACTOR } from '../platform/tokens';
import { ControlPlanePlans } from './control-plane-plans';
import { PlatformMetering } from './platform-metering';
import { QuotaCounting } from './quota-counting';
import { QuotaJournalDrain } from './quota-journal-drain';

/**
 * The plans and quota service's parts (docs/plans.md), provided by the platform module: the token
 * endpoint it builds meters through PlatformMetering, and every feature module may count.
 */
export const QUOTA_PROVIDERS: Provider[] = [
  ControlPlanePlans,
  QuotaCounting,
  PlatformMetering,
  QuotaJournalDrain,
  {
    provide: QuotaLedger,
    useFactory: (transactor: Transactor, trail: AuditTrail, clock: Clock) =>
      new QuotaLedger(transactor, trail, clock),
    inject: [TRANSACTOR, AuditTrail, CLOCK],
  },
  {
    provide: PlanAdministration,
    useFactory: (
      stores: Stores,
      transactor: Transactor,
      trail: AuditTrail,
      clock: Clock,
      feed: DefinitionFeed,
    ) => {
      const registry = (rules: typeof PLAN_DEFINITIONS) =>
        new DefinitionRegistry(rules, stores.definitions, transactor, trail, clock, () => feed.wake());
      return new PlanAdministration(registry(PLAN_DEFINITIONS), registry(SUBSCRIPTION_DEFINITIONS));
    },
    inject: [STORES, TRANSACTOR, AuditTrail, CLOCK, DefinitionFeed],
  },
];

/** What the feature modules use. */
export const QUOTA_EXPORTS = [
  ControlPlanePlans,
  QuotaCounting,
  PlatformMetering,
  QuotaLedger,
  PlanAdministration,
];
