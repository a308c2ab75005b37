import { DEVICE_CODE_GRANT } from '../registry/application';
import {
  basicAuthorization,
  createTestEngine,
  expectDomainError,
  expectOAuthError,
  postCredentials,
  TEST_IDENTITY,
  TEST_ISSUER,
} from '../testing/in-memory-stores';
import { deviceCodes } from '../tokens/opaque-token';
import { DeviceAuthorizationEndpoint, DeviceVerification } from './device-authorization.service';
import { normalizeUserCode, userCodeHash } from './device-authorization';

async function setUp() {
  const engine = await createTestEngine();
  const cli = await engine.seed({
    clientId: 'ops-cli',
    appType: 'cli',
    declaredScopes: ['jobs.*', 'files.read'],
  });
  const { session, user } = await engine.sessions.create(TEST_IDENTITY);
  const start = (params: Record<string, string> = postCredentials(cli), authorization?: string) =>
    engine.deviceAuthorization.handle(params, authorization);
  return { ...engine, cli, session, user, start };
}

describe(DeviceAuthorizationEndpoint.name, () => {
  it('answers a device code, a user code and where to enter it, storing hashes only', async () => {
    const engine = await setUp();

    const answer = await engine.start({ ...postCredentials(engine.cli), scope: 'jobs.read' });

    expect(answer).toEqual({
      device_code: expect.stringMatching(/^plat_dc_[A-Za-z0-9_-]{43}$/),
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: `${TEST_ISSUER}/device`,
      verification_uri_complete: `${TEST_ISSUER}/device?user_code=${answer.user_code}`,
      expires_in: 600,
      interval: 5,
    });
    const [stored] = engine.stores.deviceAuthorizations.all();
    expect(stored).toMatchObject({
      deviceCodeHash: deviceCodes.hash(answer.device_code),
      userCodeHash: userCodeHash(normalizeUserCode(answer.user_code) ?? ''),
      clientId: 'ops-cli',
      scopes: ['jobs.read'],
      status: 'pending',
      userId: null,
      intervalSeconds: 5,
      expiresAt: new Date(engine.clock.now().getTime() + 600_000),
    });
    expect(JSON.stringify(stored)).not.toContain(answer.device_code);
    expect(JSON.stringify(stored)).not.toContain(answer.user_code.replace('-', ''));
  });

  it('asks for every scope the app may grant a user when none is named', async () => {
    const engine = await setUp();
    await engine.start();
    expect(engine.stores.deviceAuthorizations.all()[0].scopes).toEqual(['jobs.*', 'files.read']);
  });

  it('takes Basic authentication', async () => {
    const engine = await setUp();
    await expect(
      engine.start({}, basicAuthorization('ops-cli', engine.cli.secret ?? '')),
    ).resolves.toMatchObject({ interval: 5 });
  });

  it('refuses a scope the app did not declare, and a service-only one, with invalid_scope', async () => {
    const engine = await setUp();
    await expectOAuthError(
      engine.start({ ...postCredentials(engine.cli), scope: 'secrets.read' }),
      'invalid_scope',
    );
    await expectOAuthError(
      engine.start({ ...postCredentials(engine.cli), scope: 'jobs.work' }),
      'invalid_scope',
    );
    expect(engine.stores.deviceAuthorizations.all()).toHaveLength(0);
  });

  it.each(['web', 'spa', 'service'] as const)(
    'refuses a %s app with unauthorized_client',
    async (appType) => {
      const engine = await setUp();
      const app = await engine.seed({ clientId: `a-${appType}`, appType });
      await expectOAuthError(engine.start(postCredentials(app)), 'unauthorized_client');
    },
  );

  it('refuses a wrong secret, an unknown client, and a client holding a secret presenting its client_id alone', async () => {
    const engine = await setUp();
    await expectOAuthError(engine.start({ client_id: 'ops-cli', client_secret: 'wrong' }), 'invalid_client');
    await expectOAuthError(engine.start({ client_id: 'nobody' }), 'invalid_client');
    await expectOAuthError(engine.start({ client_id: 'ops-cli' }), 'invalid_client');
  });
});

describe(DeviceVerification.name, () => {
  it('shows the request a user code names, typed in any case and without the dash', async () => {
    const engine = await setUp();
    const { user_code } = await engine.start({ ...postCredentials(engine.cli), scope: 'jobs.read' });

    const prompt = await engine.deviceVerification.check(
      engine.session,
      user_code.replace('-', '').toLowerCase(),
    );

    expect(prompt).toMatchObject({
      client: { clientId: 'ops-cli' },
      scopes: [{ name: 'jobs.read', description: 'List and view job executions' }],
      userCode: user_code,
      user: { id: engine.user.id, email: TEST_IDENTITY.claims.email },
    });
  });

  it('knows no unknown, malformed, expired or already answered code', async () => {
    const engine = await setUp();
    const { user_code } = await engine.start();
    const check = (code: string) => engine.deviceVerification.check(engine.session, code);

    await expectDomainError(check('BCDF-GHJK'), 'not_found');
    await expectDomainError(check('not a code'), 'not_found');
    await engine.deviceVerification.decide(engine.session, user_code, false);
    await expectDomainError(check(user_code), 'not_found');

    const { user_code: later } = await engine.start();
    engine.clock.advanceSeconds(600);
    await expectDomainError(check(later), 'not_found');
    await expectDomainError(engine.deviceVerification.decide(engine.session, later, true), 'not_found');
  });

  it('needs a live session', async () => {
    const engine = await setUp();
    const { user_code } = await engine.start();
    await expectDomainError(engine.deviceVerification.check('plat_ss_unknown', user_code), 'unauthenticated');
    await expectDomainError(
      engine.deviceVerification.decide('plat_ss_unknown', user_code, true),
      'unauthenticated',
    );
    expect(engine.stores.deviceAuthorizations.all()[0].status).toBe('pending');
  });

  it('audits the approval and the denial, naming the user, the client and the scopes', async () => {
    const engine = await setUp();
    const approved = await engine.start({ ...postCredentials(engine.cli), scope: 'jobs.read' });
    const denied = await engine.start({ ...postCredentials(engine.cli), scope: 'files.read' });

    await expect(engine.deviceVerification.decide(engine.session, approved.user_code, true)).resolves.toBe(
      'approved',
    );
    await expect(engine.deviceVerification.decide(engine.session, denied.user_code, false)).resolves.toBe(
      'denied',
    );

    const records = engine.stores.audit
      .all()
      .filter((record) => record.action.startsWith('device.'))
      .map((record) => [record.action, record.outcome, record.actorId, record.target, record.attributes]);
    expect(records).toEqual([
      [
        'device.approved',
        'success',
        engine.user.id,
        'ops-cli',
        { scope: 'jobs.read', grant_type: DEVICE_CODE_GRANT },
      ],
      [
        'device.denied',
        'denied',
        engine.user.id,
        'ops-cli',
        { scope: 'files.read', grant_type: DEVICE_CODE_GRANT },
      ],
    ]);
  });
});
