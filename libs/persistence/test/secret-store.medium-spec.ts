import { secretStoreContract } from './contracts/secret-store.contract';
import { describeContract } from './support/contract';

describeContract('SecretStore', secretStoreContract);
