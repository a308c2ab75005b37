import { revocationStoreContract } from './contracts/revocation-store.contract';
import { describeContract } from './support/contract';

describeContract('RevocationStore', revocationStoreContract);
