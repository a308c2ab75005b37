import { decodeJwt } from 'jose';
import {
  approvedCode,
  anApplication,
  aRefreshToken,
  codeExchange,
  createTestEngine,
  expectOAuthError,
  postCredentials,
  TEST_START,
} from '../testing/in-memory-stores';
import { TokenRevoker } from './revocation';

const HOUR_MS = 3600 * 1000;
const spaApp = anApplication({
  clientId: 'dashboard',
  appType: 'spa',
  secretHash: null,
  redirectUris: ['https://dashboard.example.com/cb'],
});

async function setUp() {
  const engine = await createTestEngine();
  const worker = await engine.seed({ clientId: 'reports-worker' });
  const billing = await engine.seed({ clientId: 'billing-worker' });
  const admin = await engine.seed({ clientId: 'ops-admin', declaredScopes: ['admin.*'] });
  const portal = await engine.seed({ clientId: 'web-portal', appType: 'web' });
  const revokeAs = (caller: typeof worker, token: string) =>
    engine.revoker.revoke({ token, ...postCredentials(caller) }, undefined);
  return { ...engine, worker, billing, admin, portal, revokeAs };
}

describe(TokenRevoker.name, () => {
  it('revokes a client its own access token until the token would have expired', async () => {
    const { revokeAs, tokenFor, worker, stores, validator } = await setUp();
    const token = await tokenFor(worker);
    const { jti, exp } = decodeJwt(token);
    await revokeAs(worker, token);
    expect(stores.revocations.all()).toEqual([
      { seq: 1, kind: 'jti', value: jti, expiresAt: new Date(exp! * 1000), createdAt: TEST_START },
    ]);
    await expect(validator.validate(token)).resolves.toBeNull();
  });

  it('records a token.revoked event', async () => {
    const { revokeAs, tokenFor, worker, stores } = await setUp();
    const token = await tokenFor(worker);
    await revokeAs(worker, token);
    expect(stores.tokenEvents.all().filter((e) => e.type === 'token.revoked')).toEqual([
      {
        id: expect.any(Number),
        type: 'token.revoked',
        clientId: 'reports-worker',
        subject: 'reports-worker',
        jti: decodeJwt(token).jti,
        grantId: null,
        occurredAt: TEST_START,
      },
    ]);
  });

  it('answers success for an expired token and adds nothing to the deny-list', async () => {
    const { revokeAs, tokenFor, worker, stores, clock } = await setUp();
    const token = await tokenFor(worker);
    clock.advanceSeconds(3600);
    await expect(revokeAs(worker, token)).resolves.toBeUndefined();
    expect(stores.revocations.all()).toEqual([]);
  });

  it('answers success for a string that is no token of ours', async () => {
    const { revokeAs, worker, stores } = await setUp();
    await expect(revokeAs(worker, 'never-issued')).resolves.toBeUndefined();
    await expect(revokeAs(worker, 'a.b.c')).resolves.toBeUndefined();
    expect(stores.revocations.all()).toEqual([]);
  });

  it('answers success for a token that is already revoked', async () => {
    const { revokeAs, tokenFor, worker } = await setUp();
    const token = await tokenFor(worker);
    await revokeAs(worker, token);
    await expect(revokeAs(worker, token)).resolves.toBeUndefined();
  });

  it("refuses to revoke another app's access token as unauthorized_client", async () => {
    const { revokeAs, tokenFor, worker, billing, stores, validator } = await setUp();
    const token = await tokenFor(billing);
    await expectOAuthError(revokeAs(worker, token), 'unauthorized_client');
    expect(stores.revocations.all()).toEqual([]);
    await expect(validator.validate(token)).resolves.not.toBeNull();
  });

  it('lets an admin app revoke any access token', async () => {
    const { revokeAs, tokenFor, billing, admin, validator } = await setUp();
    const token = await tokenFor(billing);
    await revokeAs(admin, token);
    await expect(validator.validate(token)).resolves.toBeNull();
  });

  it('refuses a confidential caller presenting no secret as invalid_client', async () => {
    const { revoker, tokenFor, worker } = await setUp();
    const token = await tokenFor(worker);
    await expectOAuthError(
      revoker.revoke({ token, client_id: 'reports-worker' }, undefined),
      'invalid_client',
    );
  });

  it('lets a spa app, which has no secret, revoke its own refresh token by client_id (RFC 7009 2.1)', async () => {
    const { revoker, stores } = await setUp();
    const dashboard = aRefreshToken({ clientId: 'dashboard', grantId: 'grant-spa' });
    await stores.refreshTokens.insertRefreshToken(dashboard.record);
    await stores.applications.insertApplication(spaApp);
    await revoker.revoke({ token: dashboard.value, client_id: 'dashboard' }, undefined);
    expect(stores.refreshTokens.all().find((t) => t.grantId === 'grant-spa')?.revokedAt).toEqual(TEST_START);
  });

  it('refuses a request without a token as invalid_request', async () => {
    const { revoker, worker } = await setUp();
    await expectOAuthError(revoker.revoke({ ...postCredentials(worker) }, undefined), 'invalid_request');
  });

  describe('with a refresh token', () => {
    async function withFamily() {
      const ctx = await setUp();
      const live = aRefreshToken({ clientId: 'web-portal', grantId: 'grant-1' });
      const rotated = aRefreshToken({ clientId: 'web-portal', grantId: 'grant-1', rotatedAt: TEST_START });
      const otherGrant = aRefreshToken({ clientId: 'web-portal', grantId: 'grant-2' });
      for (const t of [live, rotated, otherGrant])
        await ctx.stores.refreshTokens.insertRefreshToken(t.record);
      const userToken = await ctx.accessTokens.issue({
        clientId: 'web-portal',
        subject: 'user-1',
        scopes: ['jobs.read'],
        user: { tenant: 'acme', roles: ['user'], grantId: 'grant-1' },
      });
      return { ...ctx, live, rotated, otherGrant, userToken };
    }

    it('revokes the whole family and puts the grant on the deny-list for one token lifetime', async () => {
      const { revokeAs, portal, stores, live, otherGrant } = await withFamily();
      await revokeAs(portal, live.value);
      const byHash = new Map(stores.refreshTokens.all().map((t) => [t.tokenHash, t]));
      const family = stores.refreshTokens.all().filter((t) => t.grantId === 'grant-1');
      expect(family).toHaveLength(2);
      expect(family.every((t) => t.revokedAt?.getTime() === TEST_START.getTime())).toBe(true);
      expect(byHash.get(otherGrant.record.tokenHash)?.revokedAt).toBeNull();
      expect(stores.revocations.all()).toEqual([
        {
          seq: 1,
          kind: 'grant',
          value: 'grant-1',
          expiresAt: new Date(TEST_START.getTime() + HOUR_MS),
          createdAt: TEST_START,
        },
      ]);
    });

    it('invalidates the access tokens of the same grant', async () => {
      const { revokeAs, portal, validator, live, userToken } = await withFamily();
      await expect(validator.validate(userToken.token)).resolves.not.toBeNull();
      await revokeAs(portal, live.value);
      await expect(validator.validate(userToken.token)).resolves.toBeNull();
    });

    it('records a grant.revoked event naming the user', async () => {
      const { revokeAs, portal, stores, live } = await withFamily();
      await revokeAs(portal, live.value);
      expect(stores.tokenEvents.all()).toEqual([
        {
          id: 1,
          type: 'grant.revoked',
          clientId: 'web-portal',
          subject: 'user-1',
          jti: null,
          grantId: 'grant-1',
          occurredAt: TEST_START,
        },
      ]);
    });

    it('revokes a refresh token of the code flow: it no longer refreshes, its access token stops working', async () => {
      const { revokeAs, portal, tokenEndpoint, validator, ...engine } = await setUp();
      const { code } = await approvedCode(engine, portal);
      const tokens = await tokenEndpoint.handle(codeExchange(portal, code), undefined);
      await revokeAs(portal, tokens.refresh_token!);
      await expect(validator.validate(tokens.access_token)).resolves.toBeNull();
      await expectOAuthError(
        tokenEndpoint.handle(
          { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, ...postCredentials(portal) },
          undefined,
        ),
        'invalid_grant',
      );
    });

    it("refuses to revoke another app's refresh token and changes nothing", async () => {
      const { revokeAs, worker, stores, live } = await withFamily();
      await expectOAuthError(revokeAs(worker, live.value), 'unauthorized_client');
      expect(stores.refreshTokens.all().filter((t) => t.revokedAt !== null)).toEqual([]);
      expect(stores.revocations.all()).toEqual([]);
    });

    it('lets an admin app revoke any refresh token', async () => {
      const { revokeAs, admin, stores, live } = await withFamily();
      await revokeAs(admin, live.value);
      expect(stores.revocations.all()).toMatchObject([{ kind: 'grant', value: 'grant-1' }]);
    });
  });

  describe('revokeTrusted', () => {
    it('revokes any access token without an ownership check', async () => {
      const { revoker, tokenFor, billing, stores, validator } = await setUp();
      const token = await tokenFor(billing);
      await expect(revoker.revokeTrusted(token)).resolves.toBe(true);
      expect(stores.revocations.all()).toMatchObject([{ kind: 'jti', value: decodeJwt(token).jti }]);
      await expect(validator.validate(token)).resolves.toBeNull();
    });

    it('answers true for an expired token without adding an entry', async () => {
      const { revoker, tokenFor, billing, stores, clock } = await setUp();
      const token = await tokenFor(billing);
      clock.advanceSeconds(7200);
      await expect(revoker.revokeTrusted(token)).resolves.toBe(true);
      expect(stores.revocations.all()).toEqual([]);
    });

    it('answers false for a string that is no access token of ours', async () => {
      const { revoker, stores } = await setUp();
      await expect(revoker.revokeTrusted('garbage')).resolves.toBe(false);
      expect(stores.revocations.all()).toEqual([]);
    });
  });
});
