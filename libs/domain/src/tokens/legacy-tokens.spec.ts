import { randomBytes, randomUUID } from 'node:crypto';
import { AppTokenRefresher, LoginCodeGrant } from '../grants/login-code.grant';
import { RefreshTokenGrant } from '../grants/refresh-token.grant';
import { UserTokenIssuer } from '../grants/user-tokens';
import {
  aRefreshToken,
  codeExchange,
  createTestEngine,
  expectOAuthError,
  PKCE_CHALLENGE,
  PKCE_VERIFIER,
  postCredentials,
  TEST_IDENTITY,
  TEST_REFRESH_TOKEN_LIFETIME,
  TEST_START,
} from '../testing/in-memory-stores';
import { refreshTokens } from './opaque-token';

/** Every kind stored the SHA-256 of the value as presented, before prefixes and since. */
const hashOpaqueToken = (value: string) => refreshTokens.hash(value);

type LegacyCodeKind = 'authorization_code' | 'login_code';

/** A value as issued before prefixes: 256 random bits in base64url, nothing else. */
const legacyValue = () => randomBytes(32).toString('base64url');

async function setUp() {
  const engine = await createTestEngine();
  const portal = await engine.seed({ clientId: 'web-portal', appType: 'web', declaredScopes: ['jobs.*'] });
  const { session, user } = await engine.sessions.create(TEST_IDENTITY);
  const userTokens = new UserTokenIssuer(
    engine.accessTokens,
    engine.idTokens,
    TEST_REFRESH_TOKEN_LIFETIME,
    engine.clock,
  );
  const loginCodes = new LoginCodeGrant(
    engine.authenticator,
    engine.transactor,
    engine.revoker,
    userTokens,
    engine.clock,
  );
  const appRefresher = new AppTokenRefresher(
    engine.authenticator,
    new RefreshTokenGrant(engine.transactor, engine.revoker, userTokens, engine.targets, engine.clock),
  );

  /** Stores a code the way it was stored before prefixes, and answers its value. */
  const legacyCode = async (kind: LegacyCodeKind): Promise<string> => {
    const value = legacyValue();
    await engine.stores.authorizationCodes.insertAuthorizationCode({
      codeHash: hashOpaqueToken(value),
      grantId: randomUUID(),
      clientId: 'web-portal',
      userId: user.id,
      redirectUri: portal.app.redirectUris[0],
      scopes: ['jobs.read'],
      codeChallenge: PKCE_CHALLENGE,
      codeChallengeMethod: kind === 'authorization_code' ? 'S256' : 'login-code',
      createdAt: TEST_START,
      expiresAt: new Date(TEST_START.getTime() + 60_000),
      consumedAt: null,
    });
    return value;
  };

  /** Stores a refresh token of the user the way it was stored before prefixes. */
  const legacyRefreshToken = async (): Promise<string> => {
    const value = legacyValue();
    const { record } = aRefreshToken({ tokenHash: hashOpaqueToken(value), userId: user.id });
    await engine.stores.refreshTokens.insertRefreshToken(record);
    return value;
  };

  return { ...engine, portal, session, user, loginCodes, appRefresher, legacyCode, legacyRefreshToken };
}

describe('opaque values issued before prefixes (the legacy path)', () => {
  it('refreshes with a legacy refresh token, and the new refresh token carries its prefix', async () => {
    const { tokenEndpoint, portal, legacyRefreshToken } = await setUp();
    const refreshed = await tokenEndpoint.handle(
      { grant_type: 'refresh_token', refresh_token: await legacyRefreshToken(), ...postCredentials(portal) },
      undefined,
    );
    expect(refreshed.refresh_token).toMatch(/^plat_rt_/);
  });

  it('still rotates a legacy refresh token: its second use is refused', async () => {
    const { appRefresher, portal, legacyRefreshToken } = await setUp();
    const legacy = await legacyRefreshToken();
    const asPortal = { refresh_token: legacy, ...postCredentials(portal) };
    await appRefresher.refresh(asPortal, undefined);
    await expectOAuthError(appRefresher.refresh(asPortal, undefined), 'invalid_grant');
  });

  it('introspects and revokes a legacy refresh token', async () => {
    const { introspector, revoker, portal, legacyRefreshToken } = await setUp();
    const legacy = await legacyRefreshToken();
    const asPortal = { token: legacy, ...postCredentials(portal) };
    await expect(introspector.introspect(asPortal, undefined)).resolves.toMatchObject({
      active: true,
      token_type: 'refresh_token',
    });
    await revoker.revoke(asPortal, undefined);
    await expect(introspector.introspect(asPortal, undefined)).resolves.toEqual({ active: false });
  });

  it('exchanges a legacy authorization code with its verifier', async () => {
    const { tokenEndpoint, portal, legacyCode } = await setUp();
    await expect(
      tokenEndpoint.handle(codeExchange(portal, await legacyCode('authorization_code')), undefined),
    ).resolves.toMatchObject({ token_type: 'Bearer', refresh_token: expect.stringMatching(/^plat_rt_/) });
  });

  it('exchanges a legacy login code at the app login, and nowhere else', async () => {
    const { tokenEndpoint, portal, loginCodes, legacyCode } = await setUp();
    const exchange = async (code: string) =>
      loginCodes.exchange({ code, code_verifier: PKCE_VERIFIER, ...postCredentials(portal) }, undefined);
    await expect(exchange(await legacyCode('login_code'))).resolves.toMatchObject({
      token_type: 'Bearer',
    });
    const asAuthorizationCode = codeExchange(portal, await legacyCode('login_code'), {
      client_secret: portal.secret,
    });
    await expectOAuthError(tokenEndpoint.handle(asAuthorizationCode, undefined), 'invalid_grant');
    await expectOAuthError(exchange(await legacyCode('authorization_code')), 'invalid_grant');
  });

  it('resolves a legacy session', async () => {
    const { sessions, stores, user } = await setUp();
    const legacy = legacyValue();
    await stores.sessions.insertSession({
      sessionHash: hashOpaqueToken(legacy),
      userId: user.id,
      createdAt: TEST_START,
      expiresAt: new Date(TEST_START.getTime() + 3600_000),
      endedAt: null,
    });
    await expect(sessions.resolve(legacy)).resolves.toMatchObject({ id: user.id });
  });
});
