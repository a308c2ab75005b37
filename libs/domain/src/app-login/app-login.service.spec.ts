import { decodeJwt } from 'jose';
import { AppTokenRefresher, LoginCodeGrant } from '../grants/login-code.grant';
import { RefreshTokenGrant } from '../grants/refresh-token.grant';
import { UserTokenIssuer } from '../grants/user-tokens';
import {
  approvedCode,
  basicAuthorization,
  codeExchange,
  createTestEngine,
  expectDomainError,
  expectOAuthError,
  PKCE_CHALLENGE,
  PKCE_VERIFIER,
  postCredentials,
  type SeededApplication,
  TEST_IDENTITY,
  TEST_REFRESH_TOKEN_LIFETIME,
  thrownBy,
} from '../testing/in-memory-stores';
import { AppLoginService, readAppLoginRequest } from './app-login.service';

const CALLBACK = 'https://app.example.com/auth/callback';
const SPA_CALLBACK = 'https://spa.example.com/auth/callback';
const OTHER_VERIFIER = 'another-verifier-of-the-right-length-0123456789';

async function setUp() {
  const engine = await createTestEngine();
  // A web app holds a secret (confidential); a spa holds none (public).
  const app = await engine.seed({
    clientId: 'portal',
    appType: 'web',
    declaredScopes: ['jobs.*', 'files.read'],
    redirectUris: [CALLBACK, 'https://app.example.com/other'],
  });
  const spa = await engine.seed({ clientId: 'spa', appType: 'spa', redirectUris: [SPA_CALLBACK] });
  const { authenticator, clock, stores, transactor, revoker, accessTokens, idTokens } = engine;
  const login = new AppLoginService(stores.applications, engine.sessions, stores.authorizationCodes, clock);
  const userTokens = new UserTokenIssuer(accessTokens, idTokens, TEST_REFRESH_TOKEN_LIFETIME, clock);
  const codes = new LoginCodeGrant(authenticator, transactor, revoker, userTokens, clock);
  const refresher = new AppTokenRefresher(
    authenticator,
    new RefreshTokenGrant(transactor, revoker, userTokens, engine.targets, clock),
  );
  const { session, user } = await engine.sessions.create(TEST_IDENTITY);
  const loginCode = async (of: SeededApplication = app) => {
    const target = {
      clientId: of.app.clientId,
      returnTo: of.app.redirectUris[0],
      codeChallenge: PKCE_CHALLENGE,
    };
    return new URL(await login.issueCode(session, target)).searchParams.get('code') ?? '';
  };
  /** The exchange as the app makes it: code, verifier and its credentials in the body. */
  const exchange = async (code: string, of: SeededApplication = app, verifier = PKCE_VERIFIER) =>
    codes.exchange({ code, code_verifier: verifier, ...postCredentials(of) }, undefined);
  const refresh = (refreshToken: string | undefined, of: SeededApplication = app) =>
    refresher.refresh({ refresh_token: refreshToken, ...postCredentials(of) }, undefined);
  return { ...engine, app, spa, login, codes, refresher, session, user, loginCode, exchange, refresh };
}

describe(readAppLoginRequest.name, () => {
  const pkce = { code_challenge: PKCE_CHALLENGE, code_challenge_method: 'S256' };

  it('reads the S256 challenge and the state the app sent', () => {
    expect(readAppLoginRequest({ ...pkce, state: 'af0ifjsldkj' })).toEqual({
      codeChallenge: PKCE_CHALLENGE,
      state: 'af0ifjsldkj',
    });
    expect(readAppLoginRequest(pkce)).toEqual({ codeChallenge: PKCE_CHALLENGE });
  });

  it.each([
    ['no challenge at all', {}],
    ['no method', { code_challenge: PKCE_CHALLENGE }],
    ['the plain method', { code_challenge: PKCE_CHALLENGE, code_challenge_method: 'plain' }],
    ['a challenge that is no SHA-256 digest', { ...pkce, code_challenge: 'short' }],
    ['a repeated challenge', { ...pkce, code_challenge: [PKCE_CHALLENGE, PKCE_CHALLENGE] }],
    ['an empty state', { ...pkce, state: '' }],
    ['a state with a control character', { ...pkce, state: 'a\nb' }],
    ['a state over 512 characters', { ...pkce, state: 's'.repeat(513) }],
    ['a repeated state', { ...pkce, state: ['a', 'b'] }],
  ])('refuses %s: PKCE is required of every app', (_, query) => {
    expect(thrownBy(() => readAppLoginRequest(query))).toMatchObject({ code: 'validation_failed' });
  });
});

describe(AppLoginService.name, () => {
  it('finds the one app that registered return_to exactly', async () => {
    const { login } = await setUp();
    await expect(login.target(CALLBACK)).resolves.toEqual({
      clientId: 'portal',
      clientName: 'portal',
      returnTo: CALLBACK,
    });
  });

  it('looks return_to up by the index, never by paging through every application', async () => {
    const { login, stores } = await setUp();
    const listing = jest.spyOn(stores.applications, 'listApplications');
    await login.target(CALLBACK);
    await expectDomainError(login.target('https://evil.example/cb'), 'validation_failed');
    expect(listing).not.toHaveBeenCalled();
  });

  it.each([
    ['another host', 'https://evil.example/auth/callback'],
    ['an unregistered path', 'https://app.example.com/auth/callback/../evil'],
    ['a prefix of a registered URI', 'https://app.example.com/auth'],
    ['an added query', `${CALLBACK}?next=https://evil.example`],
    ['javascript:', 'javascript:alert(1)'],
    ['a protocol-relative URL', '//app.example.com/auth/callback'],
    ['nothing', ''],
  ])('refuses %s', async (_, returnTo) => {
    const { login } = await setUp();
    await expectDomainError(login.target(returnTo), 'validation_failed');
  });

  it('refuses a callback registered before the redirect URI rules that breaks them, as /oauth/authorize does', async () => {
    const { login, seed, session } = await setUp();
    const legacy = 'http://localhost:4000/auth/callback';
    await seed({ clientId: 'legacy', appType: 'web', redirectUris: [legacy] });
    await expectDomainError(login.target(legacy), 'validation_failed');
    const target = { clientId: 'legacy', returnTo: legacy, codeChallenge: PKCE_CHALLENGE };
    await expectDomainError(login.issueCode(session, target), 'validation_failed');
  });

  it('refuses a callback two apps registered: it cannot say which app the user signs in to', async () => {
    const { login, seed } = await setUp();
    await seed({ clientId: 'twin', appType: 'spa', redirectUris: [CALLBACK] });
    await expectDomainError(login.target(CALLBACK), 'validation_failed');
  });

  it('issues a code and echoes the state in the callback URL; the code is stored as a hash with the challenge, for 60 seconds', async () => {
    const { login, session, user, stores } = await setUp();
    const target = { clientId: 'portal', returnTo: CALLBACK, codeChallenge: PKCE_CHALLENGE, state: 'xyz' };
    const redirectTo = new URL(await login.issueCode(session, target));
    expect(`${redirectTo.origin}${redirectTo.pathname}`).toBe(CALLBACK);
    expect([...redirectTo.searchParams.keys()]).toEqual(['code', 'state']);
    expect(redirectTo.searchParams.get('state')).toBe('xyz');
    const code = redirectTo.searchParams.get('code') ?? '';
    expect(code).toMatch(/^plat_lc_[A-Za-z0-9_-]{43}$/);
    const [record] = stores.authorizationCodes.all();
    expect(record).toMatchObject({
      clientId: 'portal',
      userId: user.id,
      redirectUri: CALLBACK,
      scopes: ['jobs.*', 'files.read'],
      codeChallenge: PKCE_CHALLENGE,
      codeChallengeMethod: 'login-code',
    });
    expect(record.codeHash).not.toContain(code);
    expect(record.expiresAt.getTime() - record.createdAt.getTime()).toBe(60_000);
  });

  it('refuses to issue a code for a callback the app no longer has, without a challenge, or for an unknown session', async () => {
    const { login, session } = await setUp();
    const target = { clientId: 'portal', returnTo: CALLBACK, codeChallenge: PKCE_CHALLENGE };
    await expectDomainError(
      login.issueCode(session, { ...target, returnTo: 'https://evil.example/cb' }),
      'validation_failed',
    );
    await expectDomainError(login.issueCode(session, { ...target, codeChallenge: '' }), 'validation_failed');
    await expectDomainError(login.issueCode('no-such-session', target), 'unauthenticated');
  });
});

describe(LoginCodeGrant.name, () => {
  it("exchanges a login code once for the user's tokens for the app, with its verifier and secret", async () => {
    const { exchange, loginCode, validator, user } = await setUp();
    const tokens = await exchange(await loginCode());
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'jobs.* files.read' });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    await expect(validator.validate(tokens.access_token)).resolves.toMatchObject({
      sub: user.id,
      client_id: 'portal',
      tenant: 'acme',
      roles: ['tenant_admin'],
    });
  });

  it('takes the secret as HTTP Basic too', async () => {
    const { codes, loginCode, app } = await setUp();
    const authorization = basicAuthorization('portal', app.secret ?? '');
    await expect(
      codes.exchange({ code: await loginCode(), code_verifier: PKCE_VERIFIER }, authorization),
    ).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  it('exchanges the code of an app without a secret (spa) with its client_id and verifier', async () => {
    const { exchange, loginCode, spa } = await setUp();
    await expect(exchange(await loginCode(spa), spa)).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  it('refuses an app that holds a secret and does not send it, or sends a wrong one, and the code stays usable', async () => {
    const { codes, exchange, loginCode } = await setUp();
    const code = await loginCode();
    const asPortal = { code, code_verifier: PKCE_VERIFIER };
    await expectOAuthError(codes.exchange({ ...asPortal, client_id: 'portal' }, undefined), 'invalid_client');
    await expectOAuthError(
      codes.exchange({ ...asPortal, client_id: 'portal', client_secret: 'wrong' }, undefined),
      'invalid_client',
    );
    await expectOAuthError(codes.exchange(asPortal, undefined), 'invalid_client');
    await expect(exchange(code)).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  it('refuses a code without a verifier, and one with a wrong verifier (which burns the code)', async () => {
    const { codes, exchange, loginCode, app } = await setUp();
    const code = await loginCode();
    await expectOAuthError(codes.exchange({ code, ...postCredentials(app) }, undefined), 'invalid_request');
    await expectOAuthError(exchange(code, undefined, OTHER_VERIFIER), 'invalid_grant');
    await expectOAuthError(exchange(code), 'invalid_grant');
  });

  it("refuses another app's code, even when that app authenticates", async () => {
    const { exchange, loginCode, spa } = await setUp();
    await expectOAuthError(exchange(await loginCode(), spa), 'invalid_grant');
  });

  it('refuses a second use and revokes what the first one issued', async () => {
    const { exchange, loginCode, validator } = await setUp();
    const code = await loginCode();
    const first = await exchange(code);
    await expectOAuthError(exchange(code), 'invalid_grant');
    await expect(validator.validate(first.access_token)).resolves.toBeNull();
  });

  it('refuses an expired code', async () => {
    const { exchange, loginCode, clock } = await setUp();
    const code = await loginCode();
    clock.advanceSeconds(61);
    await expectOAuthError(exchange(code), 'invalid_grant');
  });

  it('refuses an authorization code of the consent flow', async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.app);
    await expectOAuthError(engine.exchange(code), 'invalid_grant');
  });

  it('is not redeemable at the token endpoint as an authorization code, even with its verifier', async () => {
    const { tokenEndpoint, loginCode, app } = await setUp();
    const code = await loginCode();
    await expectOAuthError(
      tokenEndpoint.handle(
        codeExchange(app, code, { redirect_uri: CALLBACK, client_secret: app.secret }),
        undefined,
      ),
      'invalid_grant',
    );
  });

  it('refuses a missing code as invalid_request and an unknown one as invalid_grant', async () => {
    const { codes, exchange, app } = await setUp();
    await expectOAuthError(
      codes.exchange({ code_verifier: PKCE_VERIFIER, ...postCredentials(app) }, undefined),
      'invalid_request',
    );
    await expectOAuthError(exchange('nope'), 'invalid_grant');
  });
});

describe(AppTokenRefresher.name, () => {
  it('rotates the refresh token of an app login, with the secret of the app that holds one', async () => {
    const { exchange, refresh, loginCode } = await setUp();
    const first = await exchange(await loginCode());
    const second = await refresh(first.refresh_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(decodeJwt(second.access_token).client_id).toBe('portal');
  });

  it('refuses an app that holds a secret and does not send it, or sends a wrong one', async () => {
    const { exchange, refresher, refresh, loginCode } = await setUp();
    const { refresh_token: token } = await exchange(await loginCode());
    await expectOAuthError(
      refresher.refresh({ refresh_token: token, client_id: 'portal' }, undefined),
      'invalid_client',
    );
    await expectOAuthError(
      refresher.refresh({ refresh_token: token, client_id: 'portal', client_secret: 'wrong' }, undefined),
      'invalid_client',
    );
    await expectOAuthError(refresher.refresh({ refresh_token: token }, undefined), 'invalid_client');
    await expect(refresh(token)).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  it("refreshes an app without a secret by its client_id, and refuses another app's token", async () => {
    const { exchange, refresh, loginCode, spa } = await setUp();
    const spaTokens = await exchange(await loginCode(spa), spa);
    await expect(refresh(spaTokens.refresh_token, spa)).resolves.toMatchObject({ token_type: 'Bearer' });
    const portalTokens = await exchange(await loginCode());
    await expectOAuthError(refresh(portalTokens.refresh_token, spa), 'invalid_grant');
  });

  it('revokes the family when a rotated refresh token comes back', async () => {
    const { exchange, refresh, loginCode, validator } = await setUp();
    const first = await exchange(await loginCode());
    const second = await refresh(first.refresh_token);
    await expectOAuthError(refresh(first.refresh_token), 'invalid_grant');
    await expect(validator.validate(second.access_token)).resolves.toBeNull();
    await expectOAuthError(refresh(second.refresh_token), 'invalid_grant');
  });

  it('refuses an unknown or missing refresh token', async () => {
    const { refresh } = await setUp();
    await expectOAuthError(refresh('unknown'), 'invalid_grant');
    await expectOAuthError(refresh(undefined), 'invalid_request');
  });
});
