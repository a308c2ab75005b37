// From the domain's sources, as the engine below is built from them (not the built types).
import { DEVICE_CODE_GRANT } from '../../domain/src';
import {
  createTestEngine,
  expectOAuthError,
  postCredentials,
  type SeededApplication,
  TEST_IDENTITY,
  type TestEngine,
} from '../../domain/src/testing/in-memory-stores';
import { databaseDrivers, type SqlTestDatabase } from './support/drivers';

/** The device flow (RFC 8628) from request to tokens on each real database. */
for (const driver of databaseDrivers()) {
  describe(`the device code grant on ${driver.name}`, () => {
    let database: SqlTestDatabase;
    let engine: TestEngine<SqlTestDatabase['stores'], SqlTestDatabase['transactor']>;
    let cli: SeededApplication;
    let other: SeededApplication;

    beforeAll(async () => {
      database = await driver.open();
    });
    afterAll(async () => {
      await database.dispose();
    });
    beforeEach(async () => {
      await database.reset();
      engine = await createTestEngine({ stores: database.stores, transactor: database.transactor });
      cli = await engine.seed({ clientId: 'ops-cli', appType: 'cli', declaredScopes: ['jobs.*'] });
      other = await engine.seed({ clientId: 'other-cli', appType: 'cli', declaredScopes: ['jobs.*'] });
    });

    const poll = (deviceCode: string, app = cli) =>
      engine.tokenEndpoint.handle(
        { grant_type: DEVICE_CODE_GRANT, ...postCredentials(app), device_code: deviceCode },
        undefined,
      );

    it('goes from pending to the tokens once, slowing a hasty device down on the way', async () => {
      const { session } = await engine.sessions.create(TEST_IDENTITY);
      const { device_code, user_code } = await engine.deviceAuthorization.handle(
        { ...postCredentials(cli), scope: 'jobs.read' },
        undefined,
      );

      await expectOAuthError(poll(device_code), 'authorization_pending');
      await expectOAuthError(poll(device_code), 'slow_down');
      await expectOAuthError(poll(device_code, other), 'invalid_grant');
      await engine.deviceVerification.decide(session, user_code, true);
      engine.clock.advanceSeconds(10);

      const [first, second] = await Promise.allSettled([poll(device_code), poll(device_code)]);
      expect([first.status, second.status].sort()).toEqual(['fulfilled', 'rejected']);
      const issued = (first.status === 'fulfilled' ? first : second) as PromiseFulfilledResult<{
        scope: string;
      }>;
      expect(issued.value.scope).toBe('jobs.read');
      engine.clock.advanceSeconds(10);
      await expectOAuthError(poll(device_code), 'invalid_grant');
    });

    it('answers access_denied after a denial and expired_token after 600 s', async () => {
      const { session } = await engine.sessions.create(TEST_IDENTITY);
      const denied = await engine.deviceAuthorization.handle(postCredentials(cli), undefined);
      const expired = await engine.deviceAuthorization.handle(postCredentials(cli), undefined);
      await engine.deviceVerification.decide(session, denied.user_code, false);

      await expectOAuthError(poll(denied.device_code), 'access_denied');
      engine.clock.advanceSeconds(600);
      await expectOAuthError(poll(expired.device_code), 'expired_token');
    });
  });
}
