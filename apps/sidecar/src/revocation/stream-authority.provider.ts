import type { Provider } from '@nestjs/common';
import { type Clock, DenyList, LiveStreamAuthority } from '@platform/domain';
import { CLOCK } from '../clock';

/**
 * The sidecar's server streams (WatchJob, GetJobLogs) run on the token that opened them: the
 * authority follows this sidecar's deny-list, so a stream ends the moment the revocation of
 * its token, app or user is applied here, and at the token's expiry.
 */
export const streamAuthorityProvider: Provider = {
  provide: LiveStreamAuthority,
  useFactory: (denyList: DenyList, clock: Clock) => {
    const authority = new LiveStreamAuthority(clock);
    authority.follow(denyList);
    return authority;
  },
  inject: [DenyList, CLOCK],
};
