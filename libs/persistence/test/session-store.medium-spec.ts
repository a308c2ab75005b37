import { sessionStoreContract } from './contracts/session-store.contract';
import { describeContract } from './support/contract';

describeContract('SessionStore', sessionStoreContract);
