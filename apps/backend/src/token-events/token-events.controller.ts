import { TOKEN_EVENT_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** The token event stream (admin Bearer token): relayed to the control plane, live too. */
export const TokenEventsController = relayController('TokenEventsController', TOKEN_EVENT_OPERATIONS);
