import { JOB_WORKER_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** The worker's side of the queue (docs/jobs.md; the SDK's `JobWorker` drives it). */
export const JobWorkersController = relayController('JobWorkersController', JOB_WORKER_OPERATIONS);
