import { SERVICE_ACCOUNT_OPERATIONS } from '@platform/contract';
import { relayController } from '../forwarding/relay-controller';
import { ServiceAccountsHooks } from './service-accounts-hooks';

/** Service accounts (admin Bearer token): relayed to the control plane; their secrets never cached. */
export const ServiceAccountsController = relayController(
  'ServiceAccountsController',
  SERVICE_ACCOUNT_OPERATIONS,
  ServiceAccountsHooks,
);
