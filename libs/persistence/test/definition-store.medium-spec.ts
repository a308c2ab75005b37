import { definitionStoreContract } from './contracts/definition-store.contract';
import { describeContract } from './support/contract';

describeContract('DefinitionStore', definitionStoreContract);
