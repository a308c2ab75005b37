import { applicationStoreContract } from './contracts/application-store.contract';
import { describeContract } from './support/contract';

describeContract('ApplicationStore', applicationStoreContract);
