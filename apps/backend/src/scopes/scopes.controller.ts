import { SCOPE_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** Custom scope definitions (admin Bearer token): relayed to the control plane. */
export const ScopesController = relayController('ScopesController', SCOPE_OPERATIONS);
