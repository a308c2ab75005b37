import { TENANT_USER_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/**
 * Tenant user administration: the permission guard asks the sidecar, then the control plane's
 * internal routes answer for the principal the edge names.
 */
export const TenantUsersController = relayController('TenantUsersController', TENANT_USER_OPERATIONS);
