import { FEDERATION_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** A tenant's trusted workload issuers (docs/workload-identity.md): relayed to the control plane. */
export const FederationController = relayController('FederationController', FEDERATION_OPERATIONS);
