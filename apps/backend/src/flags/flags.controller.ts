import { FLAG_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** A tenant's feature flags (docs/flags.md): relayed to the control plane. */
export const FlagsController = relayController('FlagsController', FLAG_OPERATIONS);
