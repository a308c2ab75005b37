import { SECRET_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/**
 * A tenant's secrets (docs/secrets.md): relayed to the control plane's internal routes for the
 * principal the edge authorized.
 */
export const SecretsController = relayController('SecretsController', SECRET_OPERATIONS);
