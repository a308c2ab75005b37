import { ADMIN_AUDIT_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** The whole audit log, for platform administrators: relayed to the control plane. */
export const AdminAuditController = relayController('AdminAuditController', ADMIN_AUDIT_OPERATIONS);
