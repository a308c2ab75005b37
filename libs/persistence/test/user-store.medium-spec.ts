import { userStoreContract } from './contracts/user-store.contract';
import { describeContract } from './support/contract';

describeContract('UserStore', userStoreContract);
