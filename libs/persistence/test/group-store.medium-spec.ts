import { groupStoreContract } from './contracts/group-store.contract';
import { describeContract } from './support/contract';

describeContract('GroupStore', groupStoreContract);
