import { ENTITLEMENT_OPERATIONS, PLAN_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** Plans and subscriptions (docs/plans.md), for platform administrators: relayed to the control plane. */
export const PlansController = relayController('PlansController', PLAN_OPERATIONS);

/** A tenant's entitlements and quota usage: relayed for the principal the edge authorized. */
export const EntitlementsController = relayController('EntitlementsController', ENTITLEMENT_OPERATIONS);
