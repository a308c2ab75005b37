import { decodeJwt } from 'jose';
import { DEVICE_CODE_GRANT } from '../registry/application';
import {
  createTestEngine,
  expectDomainError,
  expectOAuthError,
  postCredentials,
  TEST_IDENTITY,
  type SeededApplication,
} from '../testing/in-memory-stores';
import { DeviceCodeGrant } from './device-code.grant';

async function setUp() {
  const engine = await createTestEngine();
  const cli = await engine.seed({ clientId: 'ops-cli', appType: 'cli', declaredScopes: ['jobs.*'] });
  const otherCli = await engine.seed({
    clientId: 'other-cli',
    appType: 'cli',
    declaredScopes: ['jobs.read'],
  });
  const { session, user } = await engine.sessions.create(TEST_IDENTITY);
  /** A device authorization request of `app`: its device and user codes. */
  const start = (app: SeededApplication = cli, scope?: string) =>
    engine.deviceAuthorization.handle(
      { ...postCredentials(app), ...(scope !== undefined && { scope }) },
      undefined,
    );
  const poll = (deviceCode: string, app: SeededApplication = cli) =>
    engine.tokenEndpoint.handle(
      { grant_type: DEVICE_CODE_GRANT, ...postCredentials(app), device_code: deviceCode },
      undefined,
    );
  /** Polls after the interval, as a device following the rules does. */
  const pollLater = (deviceCode: string, seconds = 5, app: SeededApplication = cli) => {
    engine.clock.advanceSeconds(seconds);
    return poll(deviceCode, app);
  };
  return { ...engine, cli, otherCli, session, user, start, poll, pollLater };
}

describe(DeviceCodeGrant.name, () => {
  it('answers authorization_pending until the user approves, then the user’s tokens', async () => {
    const engine = await setUp();
    const { device_code, user_code } = await engine.start(engine.cli, 'jobs.read');

    await expectOAuthError(engine.poll(device_code), 'authorization_pending');
    await engine.deviceVerification.decide(engine.session, user_code, true);

    const tokens = await engine.pollLater(device_code);
    expect(tokens).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'jobs.read',
      refresh_token: expect.stringMatching(/^plat_rt_/),
    });
    const [request] = engine.stores.deviceAuthorizations.all();
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      sub: engine.user.id,
      client_id: 'ops-cli',
      tenant: 'acme',
      grant_id: request.grantId,
    });
    // The refresh token continues the grant as any user grant's does.
    await expect(
      engine.tokenEndpoint.handle(
        {
          grant_type: 'refresh_token',
          ...postCredentials(engine.cli),
          refresh_token: tokens.refresh_token ?? '',
        },
        undefined,
      ),
    ).resolves.toMatchObject({ scope: 'jobs.read' });
  });

  it('issues the tokens once: a poll after success is invalid_grant', async () => {
    const engine = await setUp();
    const { device_code, user_code } = await engine.start();
    await engine.deviceVerification.decide(engine.session, user_code, true);
    await engine.poll(device_code);

    await expectOAuthError(engine.pollLater(device_code), 'invalid_grant');
    expect(engine.stores.refreshTokens.all()).toHaveLength(1);
  });

  it('issues the tokens to one of two concurrent polls', async () => {
    const engine = await setUp();
    const { device_code, user_code } = await engine.start();
    await engine.deviceVerification.decide(engine.session, user_code, true);

    const outcomes = await Promise.allSettled([engine.poll(device_code), engine.poll(device_code)]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(engine.stores.refreshTokens.all()).toHaveLength(1);
  });

  it('answers access_denied once the user denied, and after', async () => {
    const engine = await setUp();
    const { device_code, user_code } = await engine.start();
    await engine.deviceVerification.decide(engine.session, user_code, false);

    await expectOAuthError(engine.poll(device_code), 'access_denied');
    await expectOAuthError(engine.pollLater(device_code), 'access_denied');
    expect(engine.stores.refreshTokens.all()).toHaveLength(0);
  });

  it('answers slow_down to a poll before the interval, and adds 5 s to the interval', async () => {
    const engine = await setUp();
    const { device_code, interval } = await engine.start();
    expect(interval).toBe(5);

    await expectOAuthError(engine.poll(device_code), 'authorization_pending');
    await expectOAuthError(engine.pollLater(device_code, 4), 'slow_down');
    // 10 s from now on: 5 s later is still too soon, 10 s later is not.
    await expectOAuthError(engine.pollLater(device_code, 5), 'slow_down');
    await expectOAuthError(engine.pollLater(device_code, 15), 'authorization_pending');
    expect(engine.stores.deviceAuthorizations.all()[0].intervalSeconds).toBe(15);
  });

  it('answers expired_token after 600 s, even once approved', async () => {
    const engine = await setUp();
    const { device_code, user_code, expires_in } = await engine.start();
    expect(expires_in).toBe(600);
    await engine.deviceVerification.decide(engine.session, user_code, true);

    await expectOAuthError(engine.pollLater(device_code, 600), 'expired_token');
    expect(engine.stores.refreshTokens.all()).toHaveLength(0);
  });

  it("refuses another client's device code with invalid_grant, leaving its interval alone", async () => {
    const engine = await setUp();
    const { device_code } = await engine.start(engine.cli);

    await expectOAuthError(engine.poll(device_code, engine.otherCli), 'invalid_grant');
    await expectOAuthError(engine.poll(device_code), 'authorization_pending');
    await expectOAuthError(engine.pollLater(device_code), 'authorization_pending');
  });

  it('refuses an unknown device code, another kind of token, and none', async () => {
    const engine = await setUp();
    await expectOAuthError(engine.poll('plat_dc_unknown'), 'invalid_grant');
    await expectOAuthError(engine.poll('plat_rt_a-refresh-token'), 'invalid_grant');
    await expectOAuthError(engine.poll(''), 'invalid_request');
  });

  it('is for cli apps only', async () => {
    const engine = await setUp();
    const web = await engine.seed({ clientId: 'portal', appType: 'web' });
    const { device_code } = await engine.start();

    await expectOAuthError(engine.poll(device_code, web), 'unauthorized_client');
  });

  it('takes the client_id alone from a client without a secret, never from one holding a secret', async () => {
    const engine = await setUp();
    const { device_code } = await engine.start();

    await expectOAuthError(
      engine.tokenEndpoint.handle(
        { grant_type: DEVICE_CODE_GRANT, client_id: 'ops-cli', device_code },
        undefined,
      ),
      'invalid_client',
    );
    expect(
      new DeviceCodeGrant(engine.transactor, {} as never, engine.targets, engine.clock).allowsClientIdOnly,
    ).toBe(true);
  });

  it('refuses the tokens of a user deactivated since the approval', async () => {
    const engine = await setUp();
    const { device_code, user_code } = await engine.start();
    await engine.deviceVerification.decide(engine.session, user_code, true);
    const { groupRoles: _roles, ...stored } = (await engine.stores.users.findUser(engine.user.id))!;
    await engine.stores.users.updateProvisionedUser(
      stored.id,
      stored.version,
      {
        tenant: stored.tenant,
        userName: 'ada',
        externalId: null,
        active: false,
        email: null,
        name: null,
        profile: {},
      },
      engine.clock.now(),
    );

    await expectOAuthError(engine.pollLater(device_code), 'invalid_grant');
    expect(engine.stores.refreshTokens.all()).toHaveLength(0);
  });

  it('cannot approve a request twice, nor one that was denied', async () => {
    const engine = await setUp();
    const { user_code } = await engine.start();
    await engine.deviceVerification.decide(engine.session, user_code, false);

    await expectDomainError(engine.deviceVerification.decide(engine.session, user_code, true), 'not_found');
  });
});
