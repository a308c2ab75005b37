import { createHash } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import {
  anAuthorizationRequest,
  approvedCode,
  codeExchange,
  createTestEngine,
  expectDomainError,
  expectOAuthError,
  TEST_IDENTITY,
  TEST_ISSUER,
  TEST_START,
} from '../testing/in-memory-stores';
import { accessTokenHash } from './id-token';
import { afterForcedLogin, readOidcParameters, sessionVerdict } from './oidc-request';
import { userInfoClaims } from './userinfo';

async function setUp() {
  const engine = await createTestEngine();
  const spa = await engine.seed({ clientId: 'oidc-spa', appType: 'spa', declaredScopes: ['jobs.read'] });
  const exchange = (code: string) => engine.tokenEndpoint.handle(codeExchange(spa, code), undefined);
  const verifyIdToken = async (idToken: string) =>
    (
      await jwtVerify(idToken, createLocalJWKSet(engine.keys.publicJwks()), {
        issuer: TEST_ISSUER,
        audience: 'oidc-spa',
        currentDate: engine.clock.now(),
      })
    ).payload;
  return { ...engine, spa, exchange, verifyIdToken };
}

describe('ID tokens of the code flow', () => {
  it('come with a code whose scope holds openid, signed by the key ring, naming the login', async () => {
    const engine = await setUp();
    const { code, user } = await approvedCode(engine, engine.spa, {
      scope: 'openid jobs.read',
      nonce: 'n-0S6',
    });
    const answer = await engine.exchange(code);

    expect(answer.scope).toBe('openid jobs.read');
    expect(decodeProtectedHeader(answer.id_token!)).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    const claims = await engine.verifyIdToken(answer.id_token!);
    const iat = Math.floor(TEST_START.getTime() / 1000);
    expect(claims).toEqual({
      iss: TEST_ISSUER,
      sub: user.id,
      aud: 'oidc-spa',
      iat,
      exp: iat + 3600,
      nonce: 'n-0S6',
      at_hash: accessTokenHash(answer.access_token),
      auth_time: iat,
      sid: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      amr: ['fed'],
    });
  });

  it('are not issued without openid, and carry no nonce when the request had none', async () => {
    const engine = await setUp();
    const plain = await approvedCode(engine, engine.spa, { scope: 'jobs.read' });
    expect(await engine.exchange(plain.code)).not.toHaveProperty('id_token');

    const { code } = await approvedCode(engine, engine.spa, { scope: 'openid' });
    expect(decodeJwt((await engine.exchange(code)).id_token!)).not.toHaveProperty('nonce');
  });

  it('come again at a refresh whose scope holds openid, with the login time and sid of the first', async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.spa, { scope: 'openid jobs.read', nonce: 'first' });
    const first = await engine.exchange(code);
    engine.clock.advance(600_000);
    const refresh = (scope?: string) =>
      engine.tokenEndpoint.handle(
        {
          grant_type: 'refresh_token',
          client_id: 'oidc-spa',
          refresh_token: first.refresh_token!,
          ...(scope !== undefined && { scope }),
        },
        undefined,
      );
    const refreshed = await refresh();

    const before = decodeJwt(first.id_token!);
    const after = await engine.verifyIdToken(refreshed.id_token!);
    expect(after.iat).toBe(before.iat! + 600);
    expect(after).toMatchObject({ sub: before.sub, auth_time: before.auth_time, sid: before.sid });
    expect(after).not.toHaveProperty('nonce');
    expect(after.at_hash).toBe(accessTokenHash(refreshed.access_token));

    const narrowed = await engine.tokenEndpoint.handle(
      {
        grant_type: 'refresh_token',
        client_id: 'oidc-spa',
        refresh_token: refreshed.refresh_token!,
        scope: 'jobs.read',
      },
      undefined,
    );
    expect(narrowed).not.toHaveProperty('id_token');
  });

  it('are told from access tokens: neither passes for the other', async () => {
    const engine = await setUp();
    const { code } = await approvedCode(engine, engine.spa, { scope: 'openid jobs.read' });
    const answer = await engine.exchange(code);

    await expect(engine.idTokens.verifyHint(answer.access_token)).resolves.toBeNull();
    await expect(engine.accessTokens.verify(answer.id_token!)).resolves.toBeNull();
    await expect(engine.idTokens.verifyHint(answer.id_token!)).resolves.toMatchObject({
      sub: expect.any(String),
    });
    await expect(engine.idTokens.verifyHint('not.a.jwt')).resolves.toBeNull();
  });

  it('at_hash is the left half of the SHA-256 of the access token (Core 3.1.3.6)', () => {
    const token = 'jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y';
    const expected = createHash('sha256').update(token).digest().subarray(0, 16).toString('base64url');
    expect(accessTokenHash(token)).toBe(expected);
    expect(expected).toHaveLength(22);
  });
});

describe('the identity scopes', () => {
  it('need no declaration by a user-facing app', async () => {
    const engine = await setUp();
    const request = anAuthorizationRequest(engine.spa, {
      scope: 'openid profile email offline_access jobs.read',
    });
    await expect(engine.consent.check(request)).resolves.toMatchObject({
      scopes: [
        { name: 'openid', description: expect.stringContaining('Sign you in') },
        { name: 'profile', description: expect.any(String) },
        { name: 'email', description: expect.any(String) },
        { name: 'offline_access', description: expect.any(String) },
        { name: 'jobs.read', description: expect.any(String) },
      ],
    });
  });

  it('give userinfo claims per scope, leaving out what the record lacks', async () => {
    const engine = await setUp();
    const { user } = await engine.sessions.create(TEST_IDENTITY);
    expect(userInfoClaims(user, ['openid'])).toEqual({ sub: user.id });
    expect(userInfoClaims(user, ['openid', 'profile', 'email'])).toEqual({
      sub: user.id,
      name: 'Ada Lovelace',
      preferred_username: 'ada@example.com',
      updated_at: Math.floor(user.updatedAt.getTime() / 1000),
      email: 'ada@example.com',
    });
    expect(userInfoClaims({ ...user, email: null, name: null }, ['openid', 'profile', 'email'])).toEqual({
      sub: user.id,
      updated_at: Math.floor(user.updatedAt.getTime() / 1000),
    });
  });
});

describe('the authorization request parameters of OpenID Connect', () => {
  it.each([
    ['request', 'request_not_supported'],
    ['request_uri', 'request_uri_not_supported'],
    ['registration', 'registration_not_supported'],
  ] as const)('refuses %s with %s, redirectably', async (parameter, error) => {
    const engine = await setUp();
    const refused = engine.consent.check(
      anAuthorizationRequest(engine.spa, { scope: 'openid', [parameter]: 'x' }),
    );
    await expectOAuthError(refused, error);
    await expect(refused).rejects.toMatchObject({ redirectable: true });
  });

  it.each([
    ['prompt', 'select_account'],
    ['prompt', 'none login'],
    ['max_age', '-1'],
    ['max_age', 'soon'],
  ])('refuses %s=%s as invalid_request', async (parameter, value) => {
    const engine = await setUp();
    await expectOAuthError(
      engine.consent.check(anAuthorizationRequest(engine.spa, { scope: 'openid', [parameter]: value })),
      'invalid_request',
    );
  });

  it('reads prompt and max_age', () => {
    expect(readOidcParameters({})).toEqual({ prompt: [] });
    expect(readOidcParameters({ prompt: 'login consent', max_age: '0' })).toEqual({
      prompt: ['login', 'consent'],
      maxAge: 0,
    });
    expect(afterForcedLogin({ prompt: 'login consent', max_age: '0', state: 's' })).toEqual({
      prompt: 'consent',
      max_age: undefined,
      state: 's',
    });
    expect(afterForcedLogin({ prompt: 'login' }).prompt).toBeUndefined();
  });

  it('judges the session: none needs one, login and an old login ask again, a hint must match', () => {
    const now = new Date(TEST_START.getTime() + 600_000);
    const session = { userId: 'u1', authTime: TEST_START };
    expect(sessionVerdict({ prompt: [] }, undefined, now)).toBe('login');
    expect(sessionVerdict({ prompt: ['none'] }, undefined, now)).toBe('login_required');
    expect(sessionVerdict({ prompt: [] }, session, now)).toBe('use');
    expect(sessionVerdict({ prompt: ['login'] }, session, now)).toBe('login');
    expect(sessionVerdict({ prompt: [], maxAge: 600 }, session, now)).toBe('use');
    expect(sessionVerdict({ prompt: [], maxAge: 599 }, session, now)).toBe('login');
    expect(sessionVerdict({ prompt: ['none'], maxAge: 599 }, session, now)).toBe('login_required');
    expect(sessionVerdict({ prompt: [], hintedSubject: 'u2' }, session, now)).toBe('login_required');
    expect(sessionVerdict({ prompt: ['none'], hintedSubject: 'u1' }, session, now)).toBe('use');
  });

  it('refuses an id_token_hint that is not one of our ID tokens, and names the subject of one that is', async () => {
    const engine = await setUp();
    const { code, user } = await approvedCode(engine, engine.spa, { scope: 'openid' });
    const { id_token, access_token } = await engine.exchange(code);

    await expect(
      engine.consent.check(anAuthorizationRequest(engine.spa, { scope: 'openid', id_token_hint: id_token })),
    ).resolves.toMatchObject({ hintedSubject: user.id });
    await expectOAuthError(
      engine.consent.check(
        anAuthorizationRequest(engine.spa, { scope: 'openid', id_token_hint: access_token }),
      ),
      'invalid_request',
    );
  });

  it('prompt=none: consent_required until the user holds a grant covering the scopes, then a code', async () => {
    const engine = await setUp();
    const { session } = await engine.sessions.create(TEST_IDENTITY);
    const silent = (scope: string) =>
      engine.consent.decide({
        request: anAuthorizationRequest(engine.spa, { scope, prompt: 'none' }),
        session,
        approved: true,
      });
    await expectOAuthError(silent('openid jobs.read'), 'consent_required');

    const redirect = await engine.consent.decide({
      request: anAuthorizationRequest(engine.spa, { scope: 'openid jobs.read' }),
      session,
      approved: true,
    });
    const first = await engine.exchange(new URL(redirect).searchParams.get('code')!);

    expect(new URL(await silent('openid')).searchParams.get('code')).toMatch(/.+/);
    await engine.revoker.revokeGrant(
      engine.stores,
      decodeJwt(first.access_token).grant_id as string,
      'oidc-spa',
      'x',
    );
    await expectOAuthError(silent('openid'), 'consent_required');
  });

  it('decides again what the edge decided: an old login is sent to log in, a foreign hint refused', async () => {
    const engine = await setUp();
    const { session } = await engine.sessions.create(TEST_IDENTITY);
    engine.clock.advance(120_000);
    const decide = (overrides: Record<string, string>) =>
      engine.consent.decide({
        request: anAuthorizationRequest(engine.spa, { scope: 'openid', ...overrides }),
        session,
        approved: true,
      });
    await expectDomainError(decide({ max_age: '60' }), 'unauthenticated');
    await expect(decide({ max_age: '600' })).resolves.toContain('code=');
  });
});
