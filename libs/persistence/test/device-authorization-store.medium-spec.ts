import { deviceAuthorizationStoreContract } from './contracts/device-authorization-store.contract';
import { describeContract } from './support/contract';

describeContract('DeviceAuthorizationStore', deviceAuthorizationStoreContract);
