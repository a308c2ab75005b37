import { impersonationPolicyStoreContract } from './contracts/impersonation-policy-store.contract';
import { describeContract } from './support/contract';

describeContract('ImpersonationPolicyStore', impersonationPolicyStoreContract);
