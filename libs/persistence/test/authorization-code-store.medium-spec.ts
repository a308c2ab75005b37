import { authorizationCodeStoreContract } from './contracts/authorization-code-store.contract';
import { describeContract } from './support/contract';

describeContract('AuthorizationCodeStore', authorizationCodeStoreContract);
