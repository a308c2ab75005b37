import { transactorContract } from './contracts/transactor.contract';
import { describeContract } from './support/contract';

describeContract('Transactor', transactorContract);
