import { webhookStoreContract } from './contracts/webhook-store.contract';
import { describeContract } from './support/contract';

describeContract('WebhookStore', webhookStoreContract);
