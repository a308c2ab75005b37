import { signingKeyStoreContract } from './contracts/signing-key-store.contract';
import { describeContract } from './support/contract';

describeContract('SigningKeyStore', signingKeyStoreContract);
