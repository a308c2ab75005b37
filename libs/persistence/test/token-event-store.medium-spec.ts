import { tokenEventStoreContract } from './contracts/token-event-store.contract';
import { describeContract } from './support/contract';

describeContract('TokenEventStore', tokenEventStoreContract);
