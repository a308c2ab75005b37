import { jobStoreContract } from './contracts/job-store.contract';
import { describeContract } from './support/contract';

describeContract('JobStore', jobStoreContract);
