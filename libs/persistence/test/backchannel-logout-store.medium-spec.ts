import { backchannelLogoutStoreContract } from './contracts/backchannel-logout-store.contract';
import { describeContract } from './support/contract';

describeContract('BackchannelLogoutStore', backchannelLogoutStoreContract);
