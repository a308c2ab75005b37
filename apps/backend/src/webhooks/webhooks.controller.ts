import { WEBHOOK_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** Webhook endpoints (admin Bearer token): relayed to the control plane, same paths. */
export const WebhooksController = relayController('WebhooksController', WEBHOOK_OPERATIONS);
