import { APP_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';
import { AppsHooks } from './apps-hooks';

/**
 * Application management (admin Bearer token): relayed to the control plane's registry, which
 * checks the admin token again itself; `AppsHooks` adds what the edge does.
 */
export const AppsController = relayController('AppsController', APP_OPERATIONS, AppsHooks);
