import { decodeJwt } from 'jose';
import { AppTokenRefresher, LoginCodeGrant } from '../grants/login-code.grant';
import { RefreshTokenGrant } from '../grants/refresh-token.grant';
import { REFRESH_TOKEN_LIFETIME_SECONDS, UserTokenIssuer } from '../grants/user-tokens';
import {
  approvedCode,
  codeExchange,
  createTestEngine,
  expectDomainError,
  expectOAuthError,
  TEST_IDENTITY,
} from '../testing/in-memory-stores';
import { AppLoginService } from './app-login.service';

const CALLBACK = 'https://app.example.com/auth/callback';

async function setUp() {
  const engine = await createTestEngine();
  const app = await engine.seed({
    clientId: 'portal',
    appType: 'web',
    declaredScopes: ['jobs.*', 'files.read'],
    redirectUris: [CALLBACK, 'https://app.example.com/other'],
  });
  const { clock, stores, transactor, revoker, accessTokens } = engine;
  const login = new AppLoginService(stores.applications, engine.sessions, stores.authorizationCodes, clock);
  const userTokens = new UserTokenIssuer(accessTokens, REFRESH_TOKEN_LIFETIME_SECONDS, clock);
  const codes = new LoginCodeGrant(transactor, revoker, userTokens, clock);
  const refresher = new AppTokenRefresher(
    stores.refreshTokens,
    stores.applications,
    new RefreshTokenGrant(transactor, revoker, userTokens, clock),
  );
  const { session, user } = await engine.sessions.create(TEST_IDENTITY);
  const loginCode = async () => {
    const redirectTo = new URL(await login.issueCode(session, { clientId: 'portal', returnTo: CALLBACK }));
    return redirectTo.searchParams.get('code') ?? '';
  };
  return { ...engine, app, login, codes, refresher, session, user, loginCode };
}

describe(AppLoginService.name, () => {
  it('finds the one app that registered return_to exactly', async () => {
    const { login } = await setUp();
    await expect(login.target(CALLBACK)).resolves.toEqual({
      clientId: 'portal',
      clientName: 'portal',
      returnTo: CALLBACK,
    });
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

  it('refuses a callback two apps registered: it cannot say which app the user signs in to', async () => {
    const { login, seed } = await setUp();
    await seed({ clientId: 'twin', appType: 'spa', redirectUris: [CALLBACK] });
    await expectDomainError(login.target(CALLBACK), 'validation_failed');
  });

  it('issues a code in the callback URL, stored only as a hash, for 60 seconds, with every declared scope', async () => {
    const { login, session, user, stores } = await setUp();
    const redirectTo = new URL(await login.issueCode(session, { clientId: 'portal', returnTo: CALLBACK }));
    expect(`${redirectTo.origin}${redirectTo.pathname}`).toBe(CALLBACK);
    const code = redirectTo.searchParams.get('code') ?? '';
    expect(code).toMatch(/^plat_lc_[A-Za-z0-9_-]{43}$/);
    const [record] = stores.authorizationCodes.all();
    expect(record).toMatchObject({
      clientId: 'portal',
      userId: user.id,
      redirectUri: CALLBACK,
      scopes: ['jobs.*', 'files.read'],
      codeChallengeMethod: 'login-code',
    });
    expect(record.codeHash).not.toContain(code);
    expect(record.expiresAt.getTime() - record.createdAt.getTime()).toBe(60_000);
  });

  it('refuses to issue a code for a callback the app no longer has, or an unknown session', async () => {
    const { login, session } = await setUp();
    await expectDomainError(
      login.issueCode(session, { clientId: 'portal', returnTo: 'https://evil.example/cb' }),
      'validation_failed',
    );
    await expectDomainError(
      login.issueCode('no-such-session', { clientId: 'portal', returnTo: CALLBACK }),
      'unauthenticated',
    );
  });
});

describe(LoginCodeGrant.name, () => {
  it("exchanges a login code once for the user's tokens for the app", async () => {
    const { codes, loginCode, validator, user } = await setUp();
    const tokens = await codes.exchange(await loginCode());
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'jobs.* files.read' });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    await expect(validator.validate(tokens.access_token)).resolves.toMatchObject({
      sub: user.id,
      client_id: 'portal',
      tenant: 'acme',
      roles: ['tenant_admin'],
    });
  });

  it('refuses a second use and revokes what the first one issued', async () => {
    const { codes, loginCode, validator } = await setUp();
    const code = await loginCode();
    const first = await codes.exchange(code);
    await expectOAuthError(codes.exchange(code), 'invalid_grant');
    await expect(validator.validate(first.access_token)).resolves.toBeNull();
  });

  it('refuses an expired code', async () => {
    const { codes, loginCode, clock } = await setUp();
    const code = await loginCode();
    clock.advanceSeconds(61);
    await expectOAuthError(codes.exchange(code), 'invalid_grant');
  });

  it('refuses an authorization code of the consent flow, which needs its PKCE verifier', async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.app);
    await expectOAuthError(engine.codes.exchange(code), 'invalid_grant');
  });

  it('is not redeemable at the token endpoint as an authorization code', async () => {
    const { tokenEndpoint, loginCode, app } = await setUp();
    const code = await loginCode();
    await expectOAuthError(
      tokenEndpoint.handle(
        codeExchange(app, code, { redirect_uri: CALLBACK, code_verifier: 'x'.repeat(43) }),
        undefined,
      ),
      'invalid_grant',
    );
  });

  it('refuses a missing code as invalid_request and an unknown one as invalid_grant', async () => {
    const { codes } = await setUp();
    await expectOAuthError(codes.exchange(undefined), 'invalid_request');
    await expectOAuthError(codes.exchange('nope'), 'invalid_grant');
  });
});

describe(AppTokenRefresher.name, () => {
  it('rotates the refresh token of an app login without any client credential', async () => {
    const { codes, refresher, loginCode } = await setUp();
    const first = await codes.exchange(await loginCode());
    const second = await refresher.refresh(first.refresh_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(decodeJwt(second.access_token).client_id).toBe('portal');
  });

  it('revokes the family when a rotated refresh token comes back', async () => {
    const { codes, refresher, loginCode, validator } = await setUp();
    const first = await codes.exchange(await loginCode());
    const second = await refresher.refresh(first.refresh_token);
    await expectOAuthError(refresher.refresh(first.refresh_token), 'invalid_grant');
    await expect(validator.validate(second.access_token)).resolves.toBeNull();
    await expectOAuthError(refresher.refresh(second.refresh_token), 'invalid_grant');
  });

  it('refuses an unknown or missing refresh token', async () => {
    const { refresher } = await setUp();
    await expectOAuthError(refresher.refresh('unknown'), 'invalid_grant');
    await expectOAuthError(refresher.refresh(undefined), 'invalid_request');
  });
});
