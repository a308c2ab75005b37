import { quotaStoreContract } from './contracts/quota-store.contract';
import { describeContract } from './support/contract';

describeContract('QuotaStore', quotaStoreContract);
