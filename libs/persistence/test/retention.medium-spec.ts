import { retentionContract } from './contracts/retention.contract';
import { describeContract } from './support/contract';

describeContract('Retention', retentionContract);
