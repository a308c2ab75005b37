import { decodeJwt } from 'jose';
import { INVALID_GRANT_DESCRIPTION, type OAuthError } from '../errors';
import { refreshTokens } from '../tokens/opaque-token';
import {
  approvedCode,
  codeExchange,
  createTestEngine,
  expectOAuthError,
  postCredentials,
  TEST_REFRESH_TOKEN_LIFETIME,
  TEST_START,
} from '../testing/in-memory-stores';
import { RefreshTokenGrant } from './refresh-token.grant';
import { UserTokenIssuer } from './user-tokens';

const DAY_MS = 24 * 3600 * 1000;

async function setUp(scope = 'jobs.read jobs.write') {
  const engine = await createTestEngine();
  const dashboard = await engine.seed({ clientId: 'dashboard', appType: 'spa', declaredScopes: ['jobs.*'] });
  const portal = await engine.seed({ clientId: 'web-portal', appType: 'web', declaredScopes: ['jobs.*'] });
  const { code, user } = await approvedCode(engine, dashboard, { scope });
  const first = await engine.tokenEndpoint.handle(codeExchange(dashboard, code), undefined);
  const grantId = engine.stores.authorizationCodes.all()[0].grantId;
  const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
    engine.tokenEndpoint.handle(
      { grant_type: 'refresh_token', client_id: 'dashboard', refresh_token: refreshToken, ...extra },
      undefined,
    );
  return { ...engine, dashboard, portal, user, first, grantId, refresh };
}

describe(RefreshTokenGrant.name, () => {
  it('answers a new access token and a new refresh token of the same grant', async () => {
    const { refresh, first, grantId, user, validator } = await setUp();
    const refreshed = await refresh(first.refresh_token!);
    expect(refreshed).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'jobs.read jobs.write',
      refresh_token: expect.stringMatching(/^plat_rt_[A-Za-z0-9_-]{43}$/),
    });
    expect(refreshed.refresh_token).not.toBe(first.refresh_token);
    await expect(validator.validate(refreshed.access_token)).resolves.toMatchObject({
      sub: user.id,
      client_id: 'dashboard',
      tenant: 'acme',
      roles: ['tenant_admin'],
      grant_id: grantId,
    });
  });

  it('rotates: the presented token is marked rotated, the new one lives 30 days from now', async () => {
    const { refresh, first, stores, clock, grantId } = await setUp();
    clock.advanceSeconds(600);
    const refreshed = await refresh(first.refresh_token!);
    const now = new Date(TEST_START.getTime() + 600_000);
    const byHash = new Map(stores.refreshTokens.all().map((t) => [t.tokenHash, t]));
    expect(byHash.get(refreshTokens.hash(first.refresh_token!))?.rotatedAt).toEqual(now);
    expect(byHash.get(refreshTokens.hash(refreshed.refresh_token!))).toMatchObject({
      grantId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 30 * DAY_MS),
      rotatedAt: null,
    });
  });

  it('reads tenant and roles fresh from the user store', async () => {
    const { refresh, first, stores, user } = await setUp();
    await stores.users.setUserRoles(user.id, ['viewer'], TEST_START);
    const { access_token } = await refresh(first.refresh_token!);
    expect(decodeJwt(access_token).roles).toEqual(['viewer']);
  });

  it('carries the roles the user holds through its groups beside its own', async () => {
    const { refresh, first, user, stores, clock } = await setUp();
    await stores.groups.insertGroup(
      {
        id: 'g-1',
        tenant: user.tenant,
        displayName: 'Leads',
        externalId: null,
        roles: ['viewer'],
        members: [user.id],
      },
      clock.now(),
    );
    const refreshed = await refresh(first.refresh_token!);
    expect(decodeJwt(refreshed.access_token).roles).toEqual([...user.roles, 'viewer']);
  });

  it('refuses a deactivated user (SCIM active: false): invalid_grant', async () => {
    const { refresh, first, user, stores, clock } = await setUp();
    const { groupRoles, ...stored } = (await stores.users.findUser(user.id))!;
    await stores.users.updateProvisionedUser(
      user.id,
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
      clock.now(),
    );
    await expectOAuthError(refresh(first.refresh_token!), 'invalid_grant');
  });

  it('records the rotation and the issued token', async () => {
    const { refresh, first, stores, user, grantId } = await setUp();
    const { access_token } = await refresh(first.refresh_token!);
    expect(stores.tokenEvents.all().slice(-2)).toEqual([
      expect.objectContaining({ type: 'refresh_token.rotated', subject: user.id, grantId, jti: null }),
      expect.objectContaining({
        type: 'token.issued',
        subject: user.id,
        grantId,
        jti: decodeJwt(access_token).jti,
      }),
    ]);
  });

  it('answers no token when the new tokens cannot be stored, and the presented one stays usable', async () => {
    const { refresh, first, stores } = await setUp();
    jest.spyOn(stores.tokenEvents, 'appendTokenEvents').mockRejectedValueOnce(new Error('disk I/O error'));
    await expect(refresh(first.refresh_token!)).rejects.toThrow('disk I/O error');
    await expect(refresh(first.refresh_token!)).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  describe('scope', () => {
    it('narrows the access token to a requested subset, and the new refresh token keeps the grant', async () => {
      const { refresh, first, stores } = await setUp();
      const narrowed = await refresh(first.refresh_token!, { scope: 'jobs.read' });
      expect(narrowed.scope).toBe('jobs.read');
      expect(decodeJwt(narrowed.access_token).scope).toBe('jobs.read');
      const stored = stores.refreshTokens
        .all()
        .find((t) => t.tokenHash === refreshTokens.hash(narrowed.refresh_token!));
      expect(stored?.scopes).toEqual(['jobs.read', 'jobs.write']);
      await expect(refresh(narrowed.refresh_token!)).resolves.toMatchObject({
        scope: 'jobs.read jobs.write',
      });
    });

    it('narrows a granted wildcard to an action it covers', async () => {
      const { refresh, first } = await setUp('jobs.*');
      await expect(refresh(first.refresh_token!, { scope: 'jobs.read' })).resolves.toMatchObject({
        scope: 'jobs.read',
      });
    });

    it('refuses a scope beyond the grant as invalid_scope, and the token stays usable', async () => {
      const { refresh, first } = await setUp('jobs.read');
      await expectOAuthError(
        refresh(first.refresh_token!, { scope: 'jobs.read jobs.write' }),
        'invalid_scope',
      );
      await expectOAuthError(refresh(first.refresh_token!, { scope: 'jobs.*' }), 'invalid_scope');
      await expect(refresh(first.refresh_token!)).resolves.toMatchObject({ scope: 'jobs.read' });
    });
  });

  describe('when a rotated refresh token is presented again', () => {
    it('refuses it as invalid_grant', async () => {
      const { refresh, first } = await setUp();
      await refresh(first.refresh_token!);
      await expectOAuthError(refresh(first.refresh_token!), 'invalid_grant');
    });

    it('revokes the whole family: the newest refresh token and every access token of the grant', async () => {
      const { refresh, first, validator, stores, grantId } = await setUp();
      const second = await refresh(first.refresh_token!);
      await expectOAuthError(refresh(first.refresh_token!), 'invalid_grant');
      await expectOAuthError(refresh(second.refresh_token!), 'invalid_grant');
      await expect(validator.validate(first.access_token)).resolves.toBeNull();
      await expect(validator.validate(second.access_token)).resolves.toBeNull();
      expect(stores.refreshTokens.all().every((t) => t.revokedAt !== null)).toBe(true);
      expect(stores.revocations.all()).toEqual([expect.objectContaining({ kind: 'grant', value: grantId })]);
      expect(stores.tokenEvents.all().at(-1)).toMatchObject({ type: 'grant.revoked', grantId });
    });
  });

  it('lets exactly one of two concurrent refreshes with the same token succeed, then revokes the family', async () => {
    const { refresh, first, validator } = await setUp();
    const results = await Promise.allSettled([refresh(first.refresh_token!), refresh(first.refresh_token!)]);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'invalid_grant' } });
    const winner = (won[0] as PromiseFulfilledResult<{ access_token: string; refresh_token?: string }>).value;
    await expect(validator.validate(winner.access_token)).resolves.toBeNull();
    await expectOAuthError(refresh(winner.refresh_token!), 'invalid_grant');
  });

  it('treats losing the rotation to a request that read the token at the same time as reuse', async () => {
    const { refresh, first, stores, validator } = await setUp();
    const rotate = stores.refreshTokens.markRefreshTokenRotated.bind(stores.refreshTokens);
    // The rival's rotation lands between this request's read and its own rotation.
    jest.spyOn(stores.refreshTokens, 'markRefreshTokenRotated').mockImplementationOnce(async (hash, now) => {
      await rotate(hash, now);
      return rotate(hash, now);
    });
    await expectOAuthError(refresh(first.refresh_token!), 'invalid_grant');
    await expect(validator.validate(first.access_token)).resolves.toBeNull();
    expect(stores.refreshTokens.all().every((t) => t.revokedAt !== null)).toBe(true);
  });

  it('refuses an unknown refresh token as invalid_grant', async () => {
    const { refresh } = await setUp();
    await expectOAuthError(refresh('never-issued'), 'invalid_grant');
  });

  it('refuses a refresh token older than 30 days as invalid_grant', async () => {
    const { refresh, first, clock } = await setUp();
    clock.advance(30 * DAY_MS - 1);
    const alive = await refresh(first.refresh_token!);
    clock.advance(30 * DAY_MS);
    await expectOAuthError(refresh(alive.refresh_token!), 'invalid_grant');
  });

  it('ends the family 90 days after its first token however often it is rotated, whichever of the windows comes first', async () => {
    const { refresh, first, clock, stores } = await setUp();
    let current = first.refresh_token!;
    // Rotated on days 20, 40, 60 and 80: each well within the idle window.
    for (let rotation = 0; rotation < 4; rotation += 1) {
      clock.advance(20 * DAY_MS);
      current = (await refresh(current)).refresh_token!;
    }
    // Issued on day 80: idle until day 110, but the family ends on day 90.
    const last = stores.refreshTokens.all().find((t) => t.tokenHash === refreshTokens.hash(current))!;
    expect(last).toMatchObject({
      familyCreatedAt: TEST_START,
      expiresAt: new Date(TEST_START.getTime() + 90 * DAY_MS),
    });
    clock.advance(10 * DAY_MS);
    await expectOAuthError(refresh(current), 'invalid_grant');
  });

  it('applies a shortened absolute lifetime at once to the families already issued', async () => {
    const { first, clock, transactor, revoker, accessTokens, idTokens, authenticator, targets } = await setUp();
    const lifetime = { ...TEST_REFRESH_TOKEN_LIFETIME, absoluteSeconds: 7 * 24 * 3600 };
    const grant = new RefreshTokenGrant(
      transactor,
      revoker,
      new UserTokenIssuer(accessTokens, idTokens, lifetime, clock),
      targets,
      clock,
    );
    const client = await authenticator.authenticate({
      clientId: 'dashboard',
      clientSecret: undefined,
      method: 'none',
    });
    clock.advance(7 * DAY_MS);
    const error = await grant
      .handle({ params: { refresh_token: first.refresh_token! }, client })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_grant' });
    expect((error as OAuthError).detail).toContain('absolute lifetime');
  });

  it('refuses a revoked refresh token as invalid_grant', async () => {
    const { refresh, first, stores, grantId } = await setUp();
    await stores.refreshTokens.revokeRefreshTokenFamily(grantId, TEST_START);
    await expectOAuthError(refresh(first.refresh_token!), 'invalid_grant');
  });

  it("refuses another client's refresh token as invalid_grant, leaving it usable by its owner", async () => {
    const { tokenEndpoint, refresh, first, portal } = await setUp();
    await expectOAuthError(
      tokenEndpoint.handle(
        { grant_type: 'refresh_token', refresh_token: first.refresh_token!, ...postCredentials(portal) },
        undefined,
      ),
      'invalid_grant',
    );
    await expect(refresh(first.refresh_token!)).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  it('refuses a web app refreshing with its client_id alone as invalid_client, keeping the token usable with its secret', async () => {
    const engine = await setUp();
    const { portal, tokenEndpoint } = engine;
    const { code } = await approvedCode(engine, portal);
    const issued = await tokenEndpoint.handle(codeExchange(portal, code), undefined);
    const refreshAs = (credentials: Record<string, string>) =>
      tokenEndpoint.handle(
        { grant_type: 'refresh_token', refresh_token: issued.refresh_token!, ...credentials },
        undefined,
      );
    await expectOAuthError(refreshAs({ client_id: 'web-portal' }), 'invalid_client');
    await expect(refreshAs(postCredentials(portal))).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  it('refuses a request without refresh_token as invalid_request', async () => {
    const { tokenEndpoint } = await setUp();
    await expectOAuthError(
      tokenEndpoint.handle({ grant_type: 'refresh_token', client_id: 'dashboard' }, undefined),
      'invalid_request',
    );
  });

  it('refuses a service app as unauthorized_client', async () => {
    const { tokenEndpoint, seed, first } = await setUp();
    const worker = await seed({ clientId: 'reports-worker' });
    await expectOAuthError(
      tokenEndpoint.handle(
        { grant_type: 'refresh_token', refresh_token: first.refresh_token!, ...postCredentials(worker) },
        undefined,
      ),
      'unauthorized_client',
    );
  });

  it('still honours a refresh token issued before prefixes, until it is rotated (docs/tokens.md)', async () => {
    const { refresh, first, stores } = await setUp();
    // A token of the old format: 43 base64url characters, stored as the SHA-256 of that value.
    const legacy = 'k1Xo9rTq3mB7vW2zY5cH8nD4fJ6gL0aS1pE3uI7oQ9w';
    const record = stores.refreshTokens
      .all()
      .find((t) => t.tokenHash === refreshTokens.hash(first.refresh_token!))!;
    await stores.refreshTokens.insertRefreshToken({ ...record, tokenHash: refreshTokens.hash(legacy) });

    const refreshed = await refresh(legacy);
    expect(refreshed.refresh_token).toMatch(/^plat_rt_/);
    await expectOAuthError(refresh(legacy), 'invalid_grant');
  });

  it('refuses a token of another kind as invalid_grant before any lookup, with the generic description', async () => {
    const { refresh, stores } = await setUp();
    const before = stores.refreshTokens.all().length;
    const error = await refresh('plat_ac_k1Xo9rTq3mB7vW2zY5cH8nD4fJ6gL0aS1pE3uI7oQ9w').catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'invalid_grant', description: INVALID_GRANT_DESCRIPTION });
    expect((error as OAuthError).detail).toContain('authorization_code');
    expect(stores.refreshTokens.all()).toHaveLength(before);
  });
});
