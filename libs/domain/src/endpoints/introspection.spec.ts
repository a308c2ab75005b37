import {
  aRefreshToken,
  basicAuthorization,
  createTestEngine,
  expectOAuthError,
  postCredentials,
  TEST_ISSUER,
  TEST_START,
} from '../testing/in-memory-stores';
import { accessTokenIntrospection, TokenIntrospector } from './introspection';

const iatOf = (date: Date) => Math.floor(date.getTime() / 1000);

async function setUp() {
  const engine = await createTestEngine();
  const worker = await engine.seed({
    clientId: 'reports-worker',
    declaredScopes: ['jobs.read', 'files.read'],
  });
  const billing = await engine.seed({ clientId: 'billing-worker', declaredScopes: ['jobs.read'] });
  const resourceServer = await engine.seed({ clientId: 'jobs-api', declaredScopes: ['tokens.introspect'] });
  const admin = await engine.seed({ clientId: 'ops-admin', declaredScopes: ['admin.*'] });
  const portal = await engine.seed({ clientId: 'web-portal', appType: 'web' });
  const introspectAs = (caller: typeof worker, token: string) =>
    engine.introspector.introspect({ token, ...postCredentials(caller) }, undefined);
  return { ...engine, worker, billing, resourceServer, admin, portal, introspectAs };
}

describe(TokenIntrospector.name, () => {
  it('shows a client its own active token in the full form', async () => {
    const { introspectAs, tokenFor, worker, accessTokens } = await setUp();
    const token = await tokenFor(worker);
    const { jti } = (await accessTokens.verify(token))!;
    await expect(introspectAs(worker, token)).resolves.toStrictEqual({
      active: true,
      client_id: 'reports-worker',
      scope: 'jobs.read files.read',
      sub: 'reports-worker',
      iat: iatOf(TEST_START),
      exp: iatOf(TEST_START) + 3600,
      iss: TEST_ISSUER,
      aud: TEST_ISSUER,
      jti,
      token_type: 'Bearer',
    });
  });

  it('adds tenant and roles for a user token', async () => {
    const { introspectAs, accessTokens, portal } = await setUp();
    const { token } = await accessTokens.issue({
      clientId: 'web-portal',
      subject: 'user-1',
      scopes: ['jobs.read'],
      user: { tenant: 'acme', roles: ['viewer'], grantId: 'grant-1' },
    });
    await expect(introspectAs(portal, token)).resolves.toMatchObject({
      active: true,
      sub: 'user-1',
      client_id: 'web-portal',
      tenant: 'acme',
      roles: ['viewer'],
    });
  });

  it('shows the audience, the actor chain and the impersonation mode as the token carries them', async () => {
    const { introspectAs, accessTokens, portal } = await setUp();
    const act = { sub: 'support-1', client_id: 'console', act: { sub: 'gateway' } };
    const { token } = await accessTokens.issue({
      clientId: 'web-portal',
      subject: 'user-1',
      scopes: ['jobs.read'],
      user: { tenant: 'acme', roles: ['viewer'], grantId: 'grant-1' },
      audience: 'https://api.reports.example',
      act,
      impersonation: 'read_only',
    });
    await expect(introspectAs(portal, token)).resolves.toMatchObject({
      active: true,
      sub: 'user-1',
      aud: 'https://api.reports.example',
      act,
      impersonation: 'read_only',
    });
  });

  it('accepts the caller credentials by client_secret_basic', async () => {
    const { introspector, tokenFor, worker } = await setUp();
    const token = await tokenFor(worker);
    await expect(
      introspector.introspect({ token }, basicAuthorization('reports-worker', worker.secret!)),
    ).resolves.toMatchObject({
      active: true,
    });
  });

  it("answers exactly {active:false} for another app's token", async () => {
    const { introspectAs, tokenFor, worker, billing } = await setUp();
    const token = await tokenFor(billing);
    await expect(introspectAs(worker, token)).resolves.toStrictEqual({ active: false });
  });

  it('lets a resource server declaring tokens.introspect see any token', async () => {
    const { introspectAs, tokenFor, worker, resourceServer } = await setUp();
    const token = await tokenFor(worker);
    await expect(introspectAs(resourceServer, token)).resolves.toMatchObject({
      active: true,
      client_id: 'reports-worker',
    });
  });

  it('lets an admin.* app see any token', async () => {
    const { introspectAs, tokenFor, worker, admin } = await setUp();
    const token = await tokenFor(worker);
    await expect(introspectAs(admin, token)).resolves.toMatchObject({
      active: true,
      client_id: 'reports-worker',
    });
  });

  it('answers exactly {active:false} for a revoked token', async () => {
    const { introspectAs, tokenFor, worker, revoker } = await setUp();
    const token = await tokenFor(worker);
    await revoker.revoke({ token, ...postCredentials(worker) }, undefined);
    await expect(introspectAs(worker, token)).resolves.toStrictEqual({ active: false });
  });

  it('answers exactly {active:false} for an expired token', async () => {
    const { introspectAs, tokenFor, worker, clock } = await setUp();
    const token = await tokenFor(worker);
    clock.advanceSeconds(3600);
    await expect(introspectAs(worker, token)).resolves.toStrictEqual({ active: false });
  });

  it('answers exactly {active:false} for a token of a deleted app, even to an admin', async () => {
    const { introspectAs, tokenFor, billing, admin, registry } = await setUp();
    const token = await tokenFor(billing);
    await registry.delete('billing-worker');
    await expect(introspectAs(admin, token)).resolves.toStrictEqual({ active: false });
  });

  it('answers exactly {active:false} for a string that is no token of ours', async () => {
    const { introspectAs, worker } = await setUp();
    await expect(introspectAs(worker, 'garbage')).resolves.toStrictEqual({ active: false });
    await expect(introspectAs(worker, 'a.b.c')).resolves.toStrictEqual({ active: false });
  });

  it('refuses a request without a token as invalid_request', async () => {
    const { introspector, worker } = await setUp();
    await expectOAuthError(
      introspector.introspect({ ...postCredentials(worker) }, undefined),
      'invalid_request',
    );
  });

  it('refuses a caller presenting no secret as invalid_client', async () => {
    const { introspector, tokenFor, worker } = await setUp();
    const token = await tokenFor(worker);
    await expectOAuthError(
      introspector.introspect({ token, client_id: 'reports-worker' }, undefined),
      'invalid_client',
    );
  });

  it('refuses a caller with a wrong secret as invalid_client', async () => {
    const { introspector, tokenFor, worker } = await setUp();
    const token = await tokenFor(worker);
    await expectOAuthError(
      introspector.introspect({ token, client_id: 'reports-worker', client_secret: 'guess' }, undefined),
      'invalid_client',
    );
  });

  describe('with a refresh token', () => {
    it('shows the owning client an active refresh token', async () => {
      const { introspectAs, stores, portal } = await setUp();
      const { value, record } = aRefreshToken({
        clientId: 'web-portal',
        scopes: ['jobs.read', 'files.read'],
      });
      await stores.refreshTokens.insertRefreshToken(record);
      await expect(introspectAs(portal, value)).resolves.toStrictEqual({
        active: true,
        client_id: 'web-portal',
        scope: 'jobs.read files.read',
        sub: 'user-1',
        iat: iatOf(record.createdAt),
        exp: iatOf(record.expiresAt),
        iss: TEST_ISSUER,
        aud: TEST_ISSUER,
        token_type: 'refresh_token',
      });
    });

    it('answers exactly {active:false} once the refresh token was rotated', async () => {
      const { introspectAs, stores, portal, clock } = await setUp();
      const { value, record } = aRefreshToken({ clientId: 'web-portal' });
      await stores.refreshTokens.insertRefreshToken(record);
      await stores.refreshTokens.markRefreshTokenRotated(record.tokenHash, clock.now());
      await expect(introspectAs(portal, value)).resolves.toStrictEqual({ active: false });
    });

    it('answers exactly {active:false} for a revoked, expired or foreign refresh token', async () => {
      const { introspectAs, stores, portal, worker, clock } = await setUp();
      const revoked = aRefreshToken({ clientId: 'web-portal', revokedAt: TEST_START });
      const expiring = aRefreshToken({
        clientId: 'web-portal',
        expiresAt: new Date(TEST_START.getTime() + 1000),
      });
      const live = aRefreshToken({ clientId: 'web-portal' });
      for (const t of [revoked, expiring, live]) await stores.refreshTokens.insertRefreshToken(t.record);
      clock.advanceSeconds(1);
      await expect(introspectAs(portal, revoked.value)).resolves.toStrictEqual({ active: false });
      await expect(introspectAs(portal, expiring.value)).resolves.toStrictEqual({ active: false });
      await expect(introspectAs(worker, live.value)).resolves.toStrictEqual({ active: false });
    });

    it('answers exactly {active:false} when its grant is on the deny-list', async () => {
      const { introspectAs, stores, portal, clock } = await setUp();
      const { value, record } = aRefreshToken({ clientId: 'web-portal', grantId: 'grant-7' });
      await stores.refreshTokens.insertRefreshToken(record);
      await stores.revocations.addRevocations(
        [{ kind: 'grant', value: 'grant-7', expiresAt: new Date(TEST_START.getTime() + 3600_000) }],
        clock.now(),
      );
      await expect(introspectAs(portal, value)).resolves.toStrictEqual({ active: false });
    });
  });
});

describe(accessTokenIntrospection.name, () => {
  const claims = {
    client_id: 'web-portal',
    scope: 'jobs.read',
    sub: 'user-1',
    iat: 1_700_000_000,
    exp: 1_700_003_600,
    iss: TEST_ISSUER,
    aud: 'https://api.reports.example',
    jti: 'jti-1',
    tenant: 'acme',
    roles: ['viewer'],
  };

  it('shows the actor chain as issued whichever verifier decoded it (empty client_id, null act)', () => {
    const decoded = {
      sub: 'support-1',
      client_id: 'console',
      act: { sub: 'gateway', client_id: '', act: null },
    };

    expect(
      accessTokenIntrospection({ ...claims, act: decoded, impersonation: 'full' }, 'web-portal', false),
    ).toMatchObject({
      act: { sub: 'support-1', client_id: 'console', act: { sub: 'gateway' } },
      impersonation: 'full',
    });
  });

  it('shows neither act nor impersonation for a token without them, as the proto decodes it', () => {
    const answer = accessTokenIntrospection({ ...claims, act: null, impersonation: '' }, 'web-portal', false);

    expect(answer).not.toHaveProperty('act');
    expect(answer).not.toHaveProperty('impersonation');
    expect(answer).toMatchObject({ aud: 'https://api.reports.example' });
  });
});
