import { randomUUID } from 'node:crypto';
// From the domain's sources, as the engine below is built from them (not the built types).
import { LoginCodeGrant, loginCodes, UserTokenIssuer } from '../../domain/src';
import {
  approvedCode,
  codeExchange,
  createTestEngine,
  expectOAuthError,
  PKCE_CHALLENGE,
  PKCE_VERIFIER,
  postCredentials,
  type SeededApplication,
  type TestEngine,
  TEST_REFRESH_TOKEN_LIFETIME,
} from '../../domain/src/testing/in-memory-stores';
import { databaseDrivers, type SqlTestDatabase } from './support/drivers';

/**
 * Every grant of the token endpoint, from request to stored rows, on each real database: the
 * unit specs run the same engine on the in-memory fakes, held to the same storage contract.
 */
for (const driver of databaseDrivers()) {
  describe(`the grants on ${driver.name}`, () => {
    let database: SqlTestDatabase;
    let engine: TestEngine<SqlTestDatabase['stores'], SqlTestDatabase['transactor']>;
    let worker: SeededApplication;
    let dashboard: SeededApplication;

    beforeAll(async () => {
      database = await driver.open();
    });
    afterAll(async () => {
      await database.dispose();
    });
    beforeEach(async () => {
      await database.reset();
      engine = await createTestEngine({ stores: database.stores, transactor: database.transactor });
      worker = await engine.seed({ clientId: 'worker', declaredScopes: ['jobs.*'] });
      dashboard = await engine.seed({ clientId: 'dashboard', appType: 'spa', declaredScopes: ['jobs.*'] });
    });

    const refresh = (refreshToken: string) =>
      engine.tokenEndpoint.handle(
        { grant_type: 'refresh_token', client_id: 'dashboard', refresh_token: refreshToken },
        undefined,
      );

    it('client_credentials: issues a valid token and records its issue', async () => {
      const response = await engine.tokenEndpoint.handle(
        { grant_type: 'client_credentials', scope: 'jobs.read', ...postCredentials(worker) },
        undefined,
      );
      await expect(engine.validator.validate(response.access_token)).resolves.toMatchObject({
        client_id: 'worker',
        scope: 'jobs.read',
      });
      const events = await database.stores.tokenEvents.listTokenEvents({ limit: 10 });
      expect(events.map((event) => event.type)).toContain('token.issued');
    });

    it('authorization_code: exchanges a code once; its replay revokes what it issued', async () => {
      const { code } = await approvedCode(engine, dashboard, { scope: 'jobs.read' });
      const tokens = await engine.tokenEndpoint.handle(codeExchange(dashboard, code), undefined);
      await expect(engine.validator.validate(tokens.access_token)).resolves.toMatchObject({
        scope: 'jobs.read',
      });

      await expectOAuthError(
        engine.tokenEndpoint.handle(codeExchange(dashboard, code), undefined),
        'invalid_grant',
      );
      await expectOAuthError(refresh(tokens.refresh_token!), 'invalid_grant');
      await expect(engine.validator.validate(tokens.access_token)).resolves.toBeNull();
    });

    it('refresh_token: rotates; a rotated token presented again revokes the whole grant', async () => {
      const { code } = await approvedCode(engine, dashboard);
      const first = await engine.tokenEndpoint.handle(codeExchange(dashboard, code), undefined);
      const second = await refresh(first.refresh_token!);
      expect(second.refresh_token).not.toBe(first.refresh_token);

      await expectOAuthError(refresh(first.refresh_token!), 'invalid_grant');
      await expectOAuthError(refresh(second.refresh_token!), 'invalid_grant');
    });

    it('login code: exchanges once for the user tokens of the app it was issued to', async () => {
      const { user } = await engine.sessions.create({
        issuer: 'https://idp.example.com',
        subject: 'grace',
        claims: { tenant: 'acme', roles: ['user'] },
      });
      const code = loginCodes.generate();
      const now = engine.clock.now();
      await database.stores.authorizationCodes.insertAuthorizationCode({
        codeHash: code.hash,
        grantId: randomUUID(),
        clientId: 'dashboard',
        userId: user.id,
        redirectUri: dashboard.app.redirectUris[0],
        scopes: ['jobs.read'],
        codeChallenge: PKCE_CHALLENGE,
        codeChallengeMethod: 'login-code',
        createdAt: now,
        expiresAt: new Date(now.getTime() + 60_000),
        consumedAt: null,
      });
      const grant = new LoginCodeGrant(
        engine.authenticator,
        database.transactor,
        engine.revoker,
        new UserTokenIssuer(engine.accessTokens, engine.idTokens, TEST_REFRESH_TOKEN_LIFETIME, engine.clock),
        engine.clock,
      );

      const exchange = () =>
        grant.exchange(
          { code: code.value, code_verifier: PKCE_VERIFIER, ...postCredentials(dashboard) },
          undefined,
        );
      const tokens = await exchange();
      await expect(engine.validator.validate(tokens.access_token)).resolves.toMatchObject({
        sub: user.id,
        client_id: 'dashboard',
      });
      await expectOAuthError(exchange(), 'invalid_grant');
      // An authorization code's exchange never accepts a login code.
      await expectOAuthError(
        engine.tokenEndpoint.handle(codeExchange(dashboard, loginCodes.generate().value), undefined),
        'invalid_grant',
      );
    });
  });
}
