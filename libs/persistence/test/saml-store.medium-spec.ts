import { samlIdentityProviderStoreContract, samlRequestStoreContract } from './contracts/saml-store.contract';
import { describeContract } from './support/contract';

describeContract('SamlIdentityProviderStore', samlIdentityProviderStoreContract);
describeContract('SamlRequestStore', samlRequestStoreContract);
