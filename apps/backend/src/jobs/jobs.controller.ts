import { JOB_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';

/** A tenant's jobs (docs/jobs.md): submitted and cancelled with `jobs.write`, read with `jobs.read`. */
export const JobsController = relayController('JobsController', JOB_OPERATIONS);
