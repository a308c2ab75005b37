import { IMPERSONATION_POLICY_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** A tenant's impersonation policy: the permission guard asks the sidecar, the control plane answers. */
export const ImpersonationPolicyController = relayController(
  'ImpersonationPolicyController',
  IMPERSONATION_POLICY_OPERATIONS,
);
