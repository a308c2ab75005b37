import { exportJWK, generateKeyPair, SignJWT } from 'jose';
// From the domain's sources, as the engine's other medium specs build theirs.
import {
  AssertionReplays,
  ClientAssertionVerifier,
  ClientAuthenticator,
  CLIENT_ASSERTION_TYPE,
  KeySetCache,
  ManualClock,
  readClientCredentials,
  WorkloadTokenVerifier,
} from '../../domain/src';
import {
  anApplication,
  expectOAuthError,
  TEST_ISSUER,
  TEST_START,
  testArgon2idHasher,
} from '../../domain/src/testing/in-memory-stores';
import { databaseDrivers, type SqlTestDatabase } from './support/drivers';

const noFetch = async (): Promise<Response> => {
  throw new Error('no network in this spec');
};

/**
 * private_key_jwt and the JWT bearer grant on each real database: a `jti` (a workload token) is
 * accepted once across replicas and transactions, by the table they share.
 */
for (const driver of databaseDrivers()) {
  describe(`secretless workloads on ${driver.name}`, () => {
    let database: SqlTestDatabase;
    const clock = new ManualClock(TEST_START);

    beforeAll(async () => {
      database = await driver.open();
    });
    afterAll(async () => {
      await database.dispose();
    });
    beforeEach(() => database.reset());

    /** One control-plane replica: its own key cache and grouped inserts, the shared database. */
    const replica = () => {
      const keys = new KeySetCache({ fetch: noFetch });
      const replays = new AssertionReplays(database.stores.assertionReplays);
      const assertions = new ClientAssertionVerifier(
        keys,
        replays,
        { issuer: TEST_ISSUER, tokenEndpoint: `${TEST_ISSUER}/v1/oauth/token` },
        clock,
      );
      return new ClientAuthenticator(database.stores.applications, testArgon2idHasher, assertions);
    };

    it('accepts a private_key_jwt assertion at one replica and refuses its replay at another', async () => {
      const { privateKey, publicKey } = await generateKeyPair('ES256');
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k1' };
      await database.stores.applications.insertApplication(
        anApplication({
          clientId: 'ledger',
          tokenEndpointAuthMethod: 'private_key_jwt',
          jwks: { keys: [jwk] },
        }),
      );
      const assertion = await new SignJWT({ jti: 'once' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer('ledger')
        .setSubject('ledger')
        .setAudience(TEST_ISSUER)
        .setIssuedAt(clock.seconds)
        .setExpirationTime(clock.seconds + 60)
        .sign(privateKey);
      const credentials = readClientCredentials(
        { client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion },
        undefined,
      );

      const [first, second] = [replica(), replica()];
      await expect(first.authenticate(credentials)).resolves.toMatchObject({
        app: { clientId: 'ledger' },
        authenticatedWithSecret: true,
      });
      await expectOAuthError(second.authenticate(credentials), 'invalid_client');
      await expectOAuthError(first.authenticate(credentials), 'invalid_client');
    });

    it('maps a workload token by a stored rule once, and refuses it the second time at another replica', async () => {
      const { privateKey, publicKey } = await generateKeyPair('RS256');
      const issuer = 'https://issuer.example';
      const jwk = { ...(await exportJWK(publicKey)), kid: 'w1' };
      await database.stores.applications.insertApplication(
        anApplication({ clientId: 'ledger', tenant: 'acme', declaredScopes: ['jobs.read'] }),
      );
      await database.stores.federatedIssuers.insertFederatedIssuer({
        id: 'fi_1',
        tenant: 'acme',
        issuer,
        jwksUri: 'https://issuer.example/keys',
        rules: [
          {
            name: 'pods',
            audience: TEST_ISSUER,
            claims: { '/kubernetes.io/namespace': 'payments' },
            clientId: 'ledger',
            scopes: ['jobs.read'],
          },
        ],
        createdAt: TEST_START,
        updatedAt: TEST_START,
      });
      const serving = async () => Response.json({ keys: [jwk] });
      const token = await new SignJWT({ 'kubernetes.io': { namespace: 'payments' } })
        .setProtectedHeader({ alg: 'RS256', kid: 'w1' })
        .setIssuer(issuer)
        .setSubject('system:serviceaccount:payments:ledger')
        .setAudience([TEST_ISSUER])
        .setJti('pod-token-1')
        .setIssuedAt(clock.seconds)
        .setExpirationTime(clock.seconds + 3600)
        .sign(privateKey);
      const replicaServing = () => {
        const replays = new AssertionReplays(database.stores.assertionReplays);
        return new WorkloadTokenVerifier(
          database.stores.federatedIssuers,
          database.stores.applications,
          new KeySetCache({ fetch: serving }),
          serving,
          replays,
          clock,
        );
      };

      await expect(replicaServing().authenticate({ assertion: token })).resolves.toMatchObject({
        app: { clientId: 'ledger' },
        federation: { rule: 'pods', scopes: ['jobs.read'] },
      });
      await expectOAuthError(replicaServing().authenticate({ assertion: token }), 'invalid_grant');
    });
  });
}
