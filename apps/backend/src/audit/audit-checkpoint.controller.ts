import { AUDIT_CHECKPOINT_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** The published checkpoint of the audit log: no credential, so anyone can hold the log to it. */
export const AuditCheckpointController = relayController(
  'AuditCheckpointController',
  AUDIT_CHECKPOINT_OPERATIONS,
);
