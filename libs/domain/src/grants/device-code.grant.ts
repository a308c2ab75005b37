import type { Clock } from '../clock';
import type { DeviceAuthorizationRecord } from '../device/device-authorization';
import { invalidGrant, OAuthError } from '../errors';
import { DEVICE_CODE_GRANT } from '../registry/application';
import type { Stores, Transactor } from '../storage';
import { describeTokenKind, deviceCodes } from '../tokens/opaque-token';
import { dpopBindingOf, type GrantHandler, type TokenRequest, type TokenResponse } from './grant-handler';
import type { TokenTargets } from './token-target';
import type { UserTokenIssuer } from './user-tokens';

/**
 * RFC 8628 section 3.4 and 3.5: a device polls with its device code until the user approved
 * (the user's tokens, once), denied (`access_denied`), or the code expired (`expired_token`);
 * meanwhile `authorization_pending`, or `slow_down` (and a longer interval from then on) for a
 * poll that came too soon. A public client presents its client_id alone: the device code, which
 * only the device holds, is the proof (a client holding a secret still uses it: the token
 * endpoint checks that).
 */
export class DeviceCodeGrant implements GrantHandler {
  readonly grantType = DEVICE_CODE_GRANT;
  readonly allowsClientIdOnly = true;

  constructor(
    private readonly transactor: Transactor,
    private readonly issuer: UserTokenIssuer,
    private readonly targets: TokenTargets,
    private readonly clock: Clock,
  ) {}

  async handle(request: TokenRequest): Promise<TokenResponse> {
    const { params, client } = request;
    if (!params.device_code) throw new OAuthError('invalid_request', 'device_code is required');
    if (!deviceCodes.accepts(params.device_code)) {
      throw invalidGrant(`not a device code (${describeTokenKind(params.device_code)})`);
    }
    const hash = deviceCodes.hash(params.device_code);
    // Resolved before the transaction: an unknown resource refuses the poll and records nothing.
    const audience = await this.targets.resource(params.resource);
    // The poll, the consumption and the tokens in one transaction; refusals are returned, not
    // thrown, so that the poll they record (the grown interval) commits.
    const outcome = await this.transactor.inTransaction(async (stores) => {
      const now = this.clock.now();
      const found = await stores.deviceAuthorizations.findDeviceAuthorization(hash);
      if (!found) return invalidGrant('the device code is unknown');
      // Another client's code is not polled: its device's interval stays as it was.
      if (found.clientId !== client.app.clientId)
        return invalidGrant('the device code was issued to another client');
      const poll = await stores.deviceAuthorizations.recordDevicePoll(hash, now);
      if (!poll) return invalidGrant('the device code is unknown');
      const { record, tooSoon } = poll;
      if (record.consumedAt) return invalidGrant('the device code was already used');
      if (record.expiresAt <= now) return new OAuthError('expired_token', 'the device code has expired');
      switch (record.status) {
        case 'denied':
          return new OAuthError('access_denied', 'the user denied the request');
        case 'pending':
          return tooSoon
            ? new OAuthError(
                'slow_down',
                `polled too soon: wait ${record.intervalSeconds} s between requests`,
              )
            : new OAuthError('authorization_pending', 'the user has not answered yet');
        case 'approved':
          return this.issue(stores, record, now, audience, dpopBindingOf(request));
      }
    });
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
  }

  private async issue(
    stores: Stores,
    record: DeviceAuthorizationRecord,
    now: Date,
    audience: string | undefined,
    binding: ReturnType<typeof dpopBindingOf>,
  ): Promise<TokenResponse | OAuthError> {
    // The database lets one poll flip it: a concurrent one finds it consumed.
    if (!(await stores.deviceAuthorizations.consumeDeviceAuthorization(record.deviceCodeHash, now))) {
      return invalidGrant('the device code was already used');
    }
    const user = record.userId === null ? null : await stores.users.findUser(record.userId);
    if (!user) return invalidGrant('the user who approved no longer exists');
    return this.issuer.issue(stores, {
      grantId: record.grantId,
      clientId: record.clientId,
      user,
      scopes: record.scopes,
      grantedScopes: record.scopes,
      ...(audience !== undefined && { audience }),
      ...binding,
    });
  }
}
