import { AUDIT_RECORD_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** Applications and users writing and reading the audit log (docs/audit.md): relayed for the principal. */
export const AuditRecordsController = relayController('AuditRecordsController', AUDIT_RECORD_OPERATIONS);
