import { Injectable } from '@nestjs/common';
import { SERVICE_ACCOUNT_OPERATIONS } from '@platform/contract';
import type { UpstreamResponse } from '../clients/control-plane.client';
import type { RelayHooks } from '../forwarding/relay-controller';

/** A secret is shown once: no cache may keep it. */
const secretAnswer = {
  then: (response: UpstreamResponse): void => {
    response.headers['cache-control'] = 'no-store';
  },
};

/** What the edge adds to the service-account answers: each carries a secret. */
@Injectable()
export class ServiceAccountsHooks implements RelayHooks {
  readonly routes = {
    [SERVICE_ACCOUNT_OPERATIONS.register.id]: secretAnswer,
    [SERVICE_ACCOUNT_OPERATIONS.rotate.id]: secretAnswer,
  };
}
