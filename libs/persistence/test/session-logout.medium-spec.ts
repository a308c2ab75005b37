// From the domain's sources, as the engine below is built from them (not the built types).
import {
  AuditTrail,
  BackchannelLogoutWorker,
  LogoutTokenIssuer,
  sessionIdOf,
  sessionTokens,
  type WebhookSender,
} from '../../domain/src';
import {
  aRefreshToken,
  anApplication,
  createTestEngine,
  TEST_IDENTITY,
  TEST_ISSUER,
  type TestEngine,
} from '../../domain/src/testing/in-memory-stores';
import { databaseDrivers, type SqlTestDatabase } from './support/drivers';

/**
 * Ending a browser session on each real database (docs/openid-connect.md, "Logout"): the
 * session's grants revoked but the offline_access one, a back-channel logout queued in the same
 * transaction, and delivered by the worker.
 */
for (const driver of databaseDrivers()) {
  describe(`ending a session on ${driver.name}`, () => {
    let database: SqlTestDatabase;
    let engine: TestEngine<SqlTestDatabase['stores'], SqlTestDatabase['transactor']>;

    beforeAll(async () => {
      database = await driver.open();
    });
    afterAll(async () => {
      await database.dispose();
    });
    beforeEach(async () => {
      await database.reset();
      engine = await createTestEngine({ stores: database.stores, transactor: database.transactor });
    });

    it('revokes the session’s grants but offline_access ones, queues and delivers the back-channel logout', async () => {
      const stores = database.stores;
      await stores.applications.insertApplication(
        anApplication({
          clientId: 'portal',
          appType: 'web',
          backchannelLogoutUri: 'https://portal.example/bcl',
        }),
      );
      const { session, user } = await engine.sessions.create(TEST_IDENTITY);
      const sid = sessionIdOf(sessionTokens.hash(session));
      const stamp = { sid, authTime: engine.clock.now() };
      const online = aRefreshToken({
        grantId: 'grant-on',
        clientId: 'portal',
        userId: user.id,
        session: stamp,
      });
      const offline = aRefreshToken({
        grantId: 'grant-off',
        clientId: 'portal',
        userId: user.id,
        scopes: ['jobs.read', 'offline_access'],
        session: stamp,
      });
      for (const token of [online, offline]) await stores.refreshTokens.insertRefreshToken(token.record);

      await expect(engine.sessions.end(session)).resolves.toEqual({
        ended: true,
        revokedGrants: 1,
        backchannelClients: ['portal'],
      });

      expect(
        (await stores.refreshTokens.findRefreshToken(online.record.tokenHash))?.revokedAt,
      ).not.toBeNull();
      expect((await stores.refreshTokens.findRefreshToken(offline.record.tokenHash))?.revokedAt).toBeNull();
      await expect(stores.refreshTokens.listSessionGrants(sid, engine.clock.now())).resolves.toEqual([
        expect.objectContaining({ grantId: 'grant-off' }),
      ]);
      expect(await stores.revocations.listRevocationsAfter(0, 10)).toEqual([
        expect.objectContaining({ kind: 'grant', value: 'grant-on' }),
      ]);

      const posts: string[] = [];
      const sender: WebhookSender = {
        send: async (_url, _headers, body) => {
          posts.push(body);
          return { status: 200, error: null, excerpt: null };
        },
      };
      const worker = new BackchannelLogoutWorker(
        stores.backchannelLogouts,
        stores.applications,
        new LogoutTokenIssuer(engine.keys, TEST_ISSUER, engine.clock),
        sender,
        database.transactor,
        new AuditTrail(engine.clock),
        engine.clock,
        { leaseMs: 20_000 },
      );
      await expect(worker.deliverDue()).resolves.toBe(1);
      expect(posts).toEqual([expect.stringMatching(/^logout_token=/)]);
      await expect(stores.backchannelLogouts.listBackchannelLogoutsOfSession(sid)).resolves.toEqual([
        expect.objectContaining({ clientId: 'portal', subject: user.id, state: 'succeeded', attempts: 1 }),
      ]);
      const actions = (await stores.audit.listAuditRecords({ after: 0, limit: 50 })).map((r) => r.action);
      expect(actions).toEqual(expect.arrayContaining(['user.logout', 'logout.backchannel_delivered']));
    });
  });
}
