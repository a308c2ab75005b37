import { Inject, Injectable } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { APP_OPERATIONS } from '@platform/contract';
import { LocalRevocation } from '../auth/local-revocation';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { PLATFORM_CONFIG } from '../config';
import type { RelayHooks } from '../forwarding/relay-controller';
import { publicAppsUrl, rewriteAppsLink } from './link-header';

/**
 * What the edge adds to the registry's answers: the control plane's addresses (`Link`,
 * `Location`) become the public ones, and after a deletion or a rotation this backend refuses
 * the app's tokens (or its old secret) before it answers.
 */
@Injectable()
export class AppsHooks implements RelayHooks {
  readonly routes: RelayHooks['routes'];

  constructor(
    private readonly localRevocation: LocalRevocation,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {
    const publicAddresses = { then: this.publicAddresses };
    this.routes = {
      [APP_OPERATIONS.register.id]: publicAddresses,
      [APP_OPERATIONS.list.id]: publicAddresses,
      [APP_OPERATIONS.get.id]: publicAddresses,
      [APP_OPERATIONS.delete.id]: { then: this.revokeOnSuccess },
      [APP_OPERATIONS.rotateSecret.id]: { then: this.revokeOnSuccess },
    };
  }

  private readonly publicAddresses = (response: UpstreamResponse): void => {
    const { link, location } = response.headers;
    if (link !== undefined) response.headers.link = rewriteAppsLink(link, this.config.issuer);
    if (location === undefined) return;
    const rewritten = publicAppsUrl(location, this.config.issuer);
    if (rewritten === undefined) delete response.headers.location;
    else response.headers.location = rewritten;
  };

  private readonly revokeOnSuccess = async (response: UpstreamResponse): Promise<void> => {
    if (response.status >= 200 && response.status < 300) await this.localRevocation.applyNow();
  };
}
