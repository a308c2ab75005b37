// From the domain's sources, as the engine's other medium specs build theirs.
import { SAML2_BEARER_GRANT } from '../../domain/src';
import {
  createTestEngine,
  expectOAuthError,
  postCredentials,
} from '../../domain/src/testing/in-memory-stores';
import { samlEngine, TestSamlIdp } from '../../domain/src/testing/saml-test-engine';
import { databaseDrivers, type SqlTestDatabase } from './support/drivers';

/**
 * SAML sign-in and the RFC 7522 grant on each real database, as two control-plane replicas: an
 * assertion is taken once whichever replica receives it, and a request answered once.
 */
for (const driver of databaseDrivers()) {
  describe(`SAML on ${driver.name}`, () => {
    let database: SqlTestDatabase;
    const idp = new TestSamlIdp('acme');

    beforeAll(async () => {
      database = await driver.open();
    });
    afterAll(async () => {
      await database.dispose();
    });
    beforeEach(() => database.reset());

    const setUp = async () => {
      const engine = await createTestEngine(database);
      await database.stores.samlIdentityProviders.upsertSamlIdentityProvider(idp.registration());
      return { engine, first: samlEngine(engine), second: samlEngine(engine) };
    };

    it('signs in at one replica and refuses the same response at another', async () => {
      const { engine, first, second } = await setUp();
      const { requestId } = await first.signIn.start('acme');
      const response = idp.response(requestId, {}, engine.clock.now());
      const session = await second.signIn.finish('acme', response, requestId);
      expect(session.user).toMatchObject({ tenant: 'acme', subject: 'ada', roles: ['tenant_admin'] });
      await expect(first.signIn.finish('acme', response, requestId)).rejects.toThrow(/replayed/);
      const refused = (await database.stores.audit.listAuditRecords({ limit: 50 })).filter(
        (record) => record.action === 'saml.login_refused',
      );
      expect(refused.map((record) => record.attributes.reason)).toEqual(['replayed']);
    });

    it('issues a user token for an assertion once across replicas', async () => {
      const { engine, first, second } = await setUp();
      const app = await engine.seed({ clientId: 'portal', tenant: 'acme' });
      const params = {
        grant_type: SAML2_BEARER_GRANT,
        assertion: idp.bearerAssertion({}, engine.clock.now()),
        ...postCredentials(app),
      };
      await expect(first.tokenEndpoint.handle(params, undefined)).resolves.toMatchObject({
        token_type: 'Bearer',
      });
      await expectOAuthError(second.tokenEndpoint.handle(params, undefined), 'invalid_grant');
    });
  });
}
