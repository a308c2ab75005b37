import { assertionReplayStoreContract, federatedIssuerStoreContract } from './contracts/federation-store.contract';
import { describeContract } from './support/contract';

describeContract('AssertionReplayStore', assertionReplayStoreContract);
describeContract('FederatedIssuerStore', federatedIssuerStoreContract);
