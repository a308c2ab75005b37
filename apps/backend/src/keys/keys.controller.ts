import { KEY_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** Signing-key rotation (admin Bearer token): relayed to the control plane. */
export const KeysController = relayController('KeysController', KEY_OPERATIONS);
