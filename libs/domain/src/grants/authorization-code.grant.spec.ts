import type { OAuthError } from '../errors';
import { decodeJwt } from 'jose';
import { refreshTokens } from '../tokens/opaque-token';
import {
  approvedCode,
  basicAuthorization,
  codeExchange,
  createTestEngine,
  expectOAuthError,
  PKCE_VERIFIER,
  postCredentials,
  TEST_START,
} from '../testing/in-memory-stores';
import { AuthorizationCodeGrant } from './authorization-code.grant';

const DAY_MS = 24 * 3600 * 1000;

async function setUp() {
  const engine = await createTestEngine();
  const dashboard = await engine.seed({
    clientId: 'dashboard',
    appType: 'spa',
    declaredScopes: ['jobs.*', 'files.read'],
  });
  const portal = await engine.seed({ clientId: 'web-portal', appType: 'web' });
  const exchange = (params: Record<string, string>, authorization?: string) =>
    engine.tokenEndpoint.handle(params, authorization);
  const refresh = (refreshToken: string) =>
    engine.tokenEndpoint.handle(
      { grant_type: 'refresh_token', client_id: 'dashboard', refresh_token: refreshToken },
      undefined,
    );
  return { ...engine, dashboard, portal, exchange, refresh };
}

describe(AuthorizationCodeGrant.name, () => {
  it('exchanges a code and its verifier for an access token and a refresh token', async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.dashboard, { scope: 'jobs.read' });
    await expect(engine.exchange(codeExchange(engine.dashboard, code))).resolves.toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'jobs.read',
      refresh_token: expect.stringMatching(/^plat_rt_[A-Za-z0-9_-]{43}$/),
    });
  });

  it("issues a token acting as the user, with the user's tenant, roles and the grant id", async () => {
    const engine = await setUp();
    const { code, user } = await approvedCode(engine, engine.dashboard, { scope: 'jobs.read' });
    const { access_token } = await engine.exchange(codeExchange(engine.dashboard, code));
    const [stored] = engine.stores.authorizationCodes.all();
    await expect(engine.validator.validate(access_token)).resolves.toMatchObject({
      sub: user.id,
      client_id: 'dashboard',
      scope: 'jobs.read',
      tenant: 'acme',
      roles: ['tenant_admin'],
      grant_id: stored.grantId,
    });
  });

  it('grants every declared scope when the request named none', async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.dashboard);
    await expect(engine.exchange(codeExchange(engine.dashboard, code))).resolves.toMatchObject({
      scope: 'jobs.* files.read',
    });
  });

  it('reads tenant and roles from the user as stored at the exchange', async () => {
    const engine = await setUp();
    const { code, user } = await approvedCode(engine, engine.dashboard);
    await engine.stores.users.setUserRoles(user.id, ['viewer'], TEST_START);
    const { access_token } = await engine.exchange(codeExchange(engine.dashboard, code));
    expect(decodeJwt(access_token).roles).toEqual(['viewer']);
  });

  it('stores the refresh token as a hash of the same grant, for 30 days, starting its family', async () => {
    const engine = await setUp();
    const { code, user } = await approvedCode(engine, engine.dashboard, { scope: 'jobs.read' });
    const { refresh_token } = await engine.exchange(codeExchange(engine.dashboard, code));
    expect(engine.stores.refreshTokens.all()).toEqual([
      {
        tokenHash: refreshTokens.hash(refresh_token!),
        grantId: engine.stores.authorizationCodes.all()[0].grantId,
        clientId: 'dashboard',
        userId: user.id,
        scopes: ['jobs.read'],
        createdAt: TEST_START,
        familyCreatedAt: TEST_START,
        expiresAt: new Date(TEST_START.getTime() + 30 * DAY_MS),
        rotatedAt: null,
        revokedAt: null,
        // The session the code was approved in, carried on for ID tokens and logout.
        session: { sid: expect.any(String), authTime: TEST_START },
      },
    ]);
  });

  it('records a token.issued event naming the user and the grant', async () => {
    const engine = await setUp();
    const { code, user } = await approvedCode(engine, engine.dashboard);
    const { access_token } = await engine.exchange(codeExchange(engine.dashboard, code));
    expect(engine.stores.tokenEvents.all()).toEqual([
      {
        id: 1,
        type: 'token.issued',
        clientId: 'dashboard',
        subject: user.id,
        jti: decodeJwt(access_token).jti,
        grantId: engine.stores.authorizationCodes.all()[0].grantId,
        occurredAt: TEST_START,
      },
    ]);
  });

  it('lets a web app exchange with its secret, by post or Basic', async () => {
    const engine = await setUp();
    const { portal } = engine;
    const post = await approvedCode(engine, portal);
    await expect(engine.exchange(codeExchange(portal, post.code))).resolves.toMatchObject({
      token_type: 'Bearer',
    });
    const basic = await approvedCode(engine, portal);
    await expect(
      engine.exchange(
        codeExchange(portal, basic.code, { client_id: undefined, client_secret: undefined }),
        basicAuthorization('web-portal', portal.secret!),
      ),
    ).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  it.each([
    ['its client_id alone', { client_secret: undefined }],
    ['a wrong secret', { client_secret: 'guess' }],
  ])('refuses a web app sending %s as invalid_client, and keeps the code', async (_, credentials) => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.portal);
    await expectOAuthError(engine.exchange(codeExchange(engine.portal, code, credentials)), 'invalid_client');
    await expect(engine.exchange(codeExchange(engine.portal, code))).resolves.toMatchObject({
      token_type: 'Bearer',
    });
  });

  it('refuses a service app as unauthorized_client', async () => {
    const engine = await setUp();
    const worker = await engine.seed({ clientId: 'reports-worker' });
    await expectOAuthError(
      engine.exchange({ grant_type: 'authorization_code', code: 'c', ...postCredentials(worker) }),
      'unauthorized_client',
    );
  });

  it('refuses a request without a code as invalid_request', async () => {
    const { exchange, dashboard } = await setUp();
    await expectOAuthError(exchange(codeExchange(dashboard, 'x', { code: undefined })), 'invalid_request');
  });

  it('refuses an unknown code as invalid_grant', async () => {
    const { exchange, dashboard } = await setUp();
    await expectOAuthError(exchange(codeExchange(dashboard, 'never-issued')), 'invalid_grant');
  });

  describe('when a code is used twice', () => {
    async function usedTwice() {
      const engine = await setUp();
      const { code } = await approvedCode(engine, engine.dashboard);
      const first = await engine.exchange(codeExchange(engine.dashboard, code));
      const replay = engine.exchange(codeExchange(engine.dashboard, code));
      return { ...engine, first, replay };
    }

    it('refuses the second exchange as invalid_grant', async () => {
      const { replay } = await usedTwice();
      await expectOAuthError(replay, 'invalid_grant');
    });

    it('revokes the access token the first exchange issued', async () => {
      const { replay, first, validator } = await usedTwice();
      await replay.catch(() => undefined);
      await expect(validator.validate(first.access_token)).resolves.toBeNull();
    });

    it('revokes the refresh token the first exchange issued', async () => {
      const { replay, first, refresh, stores } = await usedTwice();
      await replay.catch(() => undefined);
      expect(stores.refreshTokens.all()[0].revokedAt).toEqual(TEST_START);
      await expectOAuthError(refresh(first.refresh_token!), 'invalid_grant');
    });

    it('revokes tokens refreshed since, the whole grant, and records it', async () => {
      const engine = await setUp();
      const { code, user } = await approvedCode(engine, engine.dashboard);
      const first = await engine.exchange(codeExchange(engine.dashboard, code));
      const refreshed = await engine.refresh(first.refresh_token!);
      await expectOAuthError(engine.exchange(codeExchange(engine.dashboard, code)), 'invalid_grant');
      await expect(engine.validator.validate(refreshed.access_token)).resolves.toBeNull();
      await expectOAuthError(engine.refresh(refreshed.refresh_token!), 'invalid_grant');
      const grantId = engine.stores.authorizationCodes.all()[0].grantId;
      expect(engine.stores.revocations.all()).toEqual([
        expect.objectContaining({ kind: 'grant', value: grantId }),
      ]);
      expect(engine.stores.tokenEvents.all().at(-1)).toMatchObject({
        type: 'grant.revoked',
        clientId: 'dashboard',
        subject: user.id,
        grantId,
      });
    });

    it('lets exactly one of two concurrent exchanges through, and then revokes what it got', async () => {
      const engine = await setUp();
      const { code } = await approvedCode(engine, engine.dashboard);
      const results = await Promise.allSettled([
        engine.exchange(codeExchange(engine.dashboard, code)),
        engine.exchange(codeExchange(engine.dashboard, code)),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({
        reason: { code: 'invalid_grant' },
      });
      const { access_token } = (won[0] as PromiseFulfilledResult<{ access_token: string }>).value;
      await expect(engine.validator.validate(access_token)).resolves.toBeNull();
    });
  });

  it('accepts a code up to 60 s old and refuses it as invalid_grant after that', async () => {
    const engine = await setUp();
    const fresh = await approvedCode(engine, engine.dashboard);
    const stale = await approvedCode(engine, engine.dashboard);
    engine.clock.advance(59_999);
    await expect(engine.exchange(codeExchange(engine.dashboard, fresh.code))).resolves.toBeDefined();
    engine.clock.advance(1);
    await expectOAuthError(engine.exchange(codeExchange(engine.dashboard, stale.code)), 'invalid_grant');
    expect(engine.stores.refreshTokens.all()).toHaveLength(1);
  });

  it('refuses a redirect_uri other than the one of the request as invalid_grant', async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.dashboard);
    await expectOAuthError(
      engine.exchange(
        codeExchange(engine.dashboard, code, { redirect_uri: 'https://app.example.com/other' }),
      ),
      'invalid_grant',
    );
  });

  it('refuses an exchange without redirect_uri as invalid_grant', async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.dashboard);
    await expectOAuthError(
      engine.exchange(codeExchange(engine.dashboard, code, { redirect_uri: undefined })),
      'invalid_grant',
    );
  });

  it("refuses another client's code as invalid_grant", async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.portal);
    await expectOAuthError(
      engine.exchange(
        codeExchange(engine.dashboard, code, { redirect_uri: engine.portal.app.redirectUris[0] }),
      ),
      'invalid_grant',
    );
  });

  it("answers another client's code exactly as an unknown one: the reason goes to the log only", async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.portal);
    const refusal = (params: Record<string, string>) =>
      engine.exchange(params).then(
        () => {
          throw new Error('the exchange succeeded');
        },
        (error: unknown) => error as OAuthError,
      );
    const stolen = await refusal(
      codeExchange(engine.dashboard, code, { redirect_uri: engine.portal.app.redirectUris[0] }),
    );
    const unknown = await refusal(
      codeExchange(engine.dashboard, 'plat_ac_k1Xo9rTq3mB7vW2zY5cH8nD4fJ6gL0aS1pE3uI7oQ9w'),
    );
    expect(stolen.description).toBe(unknown.description);
    expect(stolen.detail).toContain('another client');
    expect(unknown.detail).toContain('unknown');
  });

  it('refuses an exchange without code_verifier as invalid_request (no downgrade)', async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.dashboard);
    await expectOAuthError(
      engine.exchange(codeExchange(engine.dashboard, code, { code_verifier: undefined })),
      'invalid_request',
    );
  });

  it('refuses a wrong code_verifier as invalid_grant', async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.dashboard);
    await expectOAuthError(
      engine.exchange(
        codeExchange(engine.dashboard, code, { code_verifier: `${PKCE_VERIFIER.slice(0, -1)}l` }),
      ),
      'invalid_grant',
    );
  });

  it('burns a code whose exchange was refused: it cannot be retried', async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.dashboard);
    await expectOAuthError(
      engine.exchange(codeExchange(engine.dashboard, code, { code_verifier: 'x'.repeat(43) })),
      'invalid_grant',
    );
    await expectOAuthError(engine.exchange(codeExchange(engine.dashboard, code)), 'invalid_grant');
    expect(engine.stores.refreshTokens.all()).toEqual([]);
  });
});
