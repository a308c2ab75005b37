import { randomUUID } from 'node:crypto';
import type { AuditTrail } from '../audit/audit-trail';
import { requestedUserScopes } from '../authorization/authorization-request';
import { presentedOwnCredentials, type ClientAuthenticator } from '../clients/client-authenticator';
import { readClientCredentials } from '../clients/client-credentials';
import type { Clock } from '../clock';
import { DomainError, OAuthError } from '../errors';
import {
  appMayUseGrant,
  DEVICE_CODE_GRANT,
  type Application,
  type ApplicationStore,
} from '../registry/application';
import type { ScopeDescription, ScopeRegistry } from '../registry/scope-registry';
import type { SessionService } from '../sessions/session.service';
import type { Transactor } from '../storage';
import type { User } from '../users/user';
import { deviceCodes } from '../tokens/opaque-token';
import {
  DEVICE_CODE_LIFETIME_SECONDS,
  DEVICE_POLL_INTERVAL_SECONDS,
  DEVICE_VERIFICATION_PATH,
  type DeviceAuthorizationRecord,
  type DeviceAuthorizationStore,
  formatUserCode,
  generateUserCode,
  normalizeUserCode,
  userCodeHash,
} from './device-authorization';

/** RFC 8628 section 3.2: the device authorization response. */
export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** Draws of a user code before giving up (a collision among live codes is already rare). */
const USER_CODE_DRAWS = 5;

/**
 * RFC 8628 sections 3.1 and 3.2: a client asks for a device code and a user code. The client
 * authenticates as at the token endpoint (a client holding a secret with it, a public one by its
 * client_id), must be allowed the device grant (`cli` apps), and its scopes follow the
 * authorization request's rules.
 */
export class DeviceAuthorizationEndpoint {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly transactor: Transactor,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  async handle(
    params: Record<string, string>,
    authorization: string | undefined,
  ): Promise<DeviceAuthorizationResponse> {
    const client = await this.authenticator.authenticate(readClientCredentials(params, authorization));
    if (!presentedOwnCredentials(client))
      throw new OAuthError('invalid_client', 'client authentication failed');
    const app = client.app;
    if (!appMayUseGrant(app.appType, DEVICE_CODE_GRANT)) {
      throw new OAuthError('unauthorized_client', `a ${app.appType} app may not use the device flow`);
    }
    const scopes = requestedUserScopes(app, params.scope);
    if (typeof scopes === 'string') throw new OAuthError('invalid_scope', scopes);

    const deviceCode = deviceCodes.generate();
    const now = this.clock.now();
    for (let draw = 0; draw < USER_CODE_DRAWS; draw += 1) {
      const userCode = generateUserCode();
      const record: DeviceAuthorizationRecord = {
        deviceCodeHash: deviceCode.hash,
        userCodeHash: userCodeHash(userCode),
        grantId: randomUUID(),
        clientId: app.clientId,
        scopes,
        status: 'pending',
        userId: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + DEVICE_CODE_LIFETIME_SECONDS * 1000),
        intervalSeconds: DEVICE_POLL_INTERVAL_SECONDS,
        lastPolledAt: null,
        decidedAt: null,
        consumedAt: null,
      };
      const inserted = await this.transactor.inTransaction((stores) =>
        stores.deviceAuthorizations.insertDeviceAuthorization(record),
      );
      if (inserted === 'created') return this.response(deviceCode.value, formatUserCode(userCode));
    }
    throw new DomainError('unavailable', 'no free user code was drawn');
  }

  private response(deviceCode: string, userCode: string): DeviceAuthorizationResponse {
    const verificationUri = `${this.issuer}${DEVICE_VERIFICATION_PATH}`;
    return {
      device_code: deviceCode,
      user_code: userCode,
      verification_uri: verificationUri,
      verification_uri_complete: `${verificationUri}?${new URLSearchParams({ user_code: userCode }).toString()}`,
      expires_in: DEVICE_CODE_LIFETIME_SECONDS,
      interval: DEVICE_POLL_INTERVAL_SECONDS,
    };
  }
}

/** What the verification page asks the user to approve. */
export interface DevicePrompt {
  client: Application;
  scopes: ScopeDescription[];
  /** The code as the device shows it (`BCDF-GHJK`). */
  userCode: string;
  /** Who is signed in: the one who would approve. */
  user: Pick<User, 'id' | 'name' | 'email'>;
}

/**
 * The verification page's decisions (RFC 8628 section 3.3): which request a user code names, and
 * the signed-in user's approval or denial of it. An unknown, expired or already decided code is
 * `not_found` alike (the page says the code is not valid); the backend counts those as wrong
 * guesses. Both answers are audited (`device.approved`, `device.denied`).
 */
export class DeviceVerification {
  constructor(
    private readonly applications: Pick<ApplicationStore, 'findApplication'>,
    private readonly devices: Pick<DeviceAuthorizationStore, 'findDeviceAuthorizationByUserCode'>,
    private readonly scopes: Pick<ScopeRegistry, 'describe'>,
    private readonly sessions: Pick<SessionService, 'resolve'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async check(session: string, typedUserCode: string): Promise<DevicePrompt> {
    const user = await this.sessions.resolve(session);
    const { code, request } = await this.pending(typedUserCode);
    const client = await this.applications.findApplication(request.clientId);
    if (!client) throw unknownCode();
    return {
      client,
      scopes: await this.scopes.describe(request.scopes),
      userCode: formatUserCode(code),
      user: { id: user.id, name: user.name, email: user.email },
    };
  }

  /** Approves or denies the request; answers what was recorded. */
  async decide(session: string, typedUserCode: string, approved: boolean): Promise<'approved' | 'denied'> {
    const user = await this.sessions.resolve(session);
    const { code } = await this.pending(typedUserCode);
    const status = approved ? 'approved' : 'denied';
    await this.transactor.inTransaction(async (stores) => {
      const now = this.clock.now();
      const decided = await stores.deviceAuthorizations.decideDeviceAuthorization(
        userCodeHash(code),
        { status, userId: user.id },
        now,
      );
      if (!decided) throw unknownCode();
      await stores.audit.appendAuditRecords([
        this.trail.record({
          actor: { kind: 'user', id: user.id },
          action: approved ? 'device.approved' : 'device.denied',
          outcome: approved ? 'success' : 'denied',
          target: decided.clientId,
          tenant: user.tenant,
          attributes: { scope: decided.scopes.join(' '), grant_type: DEVICE_CODE_GRANT },
          occurredAt: now,
        }),
      ]);
    });
    return status;
  }

  private async pending(
    typedUserCode: string,
  ): Promise<{ code: string; request: DeviceAuthorizationRecord }> {
    const code = normalizeUserCode(typedUserCode);
    const request =
      code === undefined ? null : await this.devices.findDeviceAuthorizationByUserCode(userCodeHash(code));
    if (!code || !request || request.status !== 'pending' || request.expiresAt <= this.clock.now()) {
      throw unknownCode();
    }
    return { code, request };
  }
}

const unknownCode = () => new DomainError('not_found', 'the code is unknown, expired or already used');
