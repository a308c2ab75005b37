import { auditStoreContract } from './contracts/audit-store.contract';
import { describeContract } from './support/contract';

describeContract('AuditStore', auditStoreContract);
