import { refreshTokenStoreContract } from './contracts/refresh-token-store.contract';
import { describeContract } from './support/contract';

describeContract('RefreshTokenStore', refreshTokenStoreContract);
