import { scopeStoreContract } from './contracts/scope-store.contract';
import { describeContract } from './support/contract';

describeContract('ScopeStore', scopeStoreContract);
