import { SECRETS_ADMIN_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** The key-encryption key's rotation, second step (docs/secrets.md): relayed to the control plane. */
export const AdminSecretsController = relayController('AdminSecretsController', SECRETS_ADMIN_OPERATIONS);
