import { exportJWK, generateKeyPair, type JWK, SignJWT, type JWTPayload, UnsecuredJWT } from 'jose';
import { ManualClock } from '../clock';
import { OAuthError } from '../errors';
import type { Application } from '../registry/application';
import {
  anApplication,
  expectOAuthError,
  InMemoryApplicationStore,
  TEST_ISSUER,
  TEST_START,
  testArgon2idHasher,
} from '../testing/in-memory-stores';
import { InMemoryAssertionReplayStore } from '../testing/in-memory-federation-stores';
import { AssertionReplays } from './assertion-replays';
import { ClientAssertionVerifier, CLIENT_ASSERTION_TYPE } from './client-assertion';
import { ClientAuthenticator, presentedOwnCredentials } from './client-authenticator';
import { readClientCredentials } from './client-credentials';
import { KeySetCache } from './key-sets';

const TOKEN_ENDPOINT = `${TEST_ISSUER}/v1/oauth/token`;
const CLIENT_ID = 'ledger-worker';

async function keyPair(alg: 'ES256' | 'RS256' | 'PS256', kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { privateKey, jwk, alg, kid };
}
type Key = Awaited<ReturnType<typeof keyPair>>;

/** A JWK set served at a URL, counting its fetches: what a client's `jwks_uri` answers. */
class KeySetServer {
  fetches = 0;
  constructor(public keys: JWK[]) {}
  readonly fetch = async () => {
    this.fetches += 1;
    return new Response(JSON.stringify({ keys: this.keys }), { status: 200 });
  };
}

async function setUp(options: { registered?: 'inline' | 'uri'; cooldownMs?: number } = {}) {
  const clock = new ManualClock(TEST_START);
  const es = await keyPair('ES256', 'es-1');
  const server = new KeySetServer([es.jwk]);
  const applications = new InMemoryApplicationStore();
  const app: Application = anApplication({
    clientId: CLIENT_ID,
    tokenEndpointAuthMethod: 'private_key_jwt',
    ...(options.registered === 'uri'
      ? { jwksUri: 'https://ledger.example/jwks.json' }
      : { jwks: { keys: [es.jwk] } }),
  });
  await applications.insertApplication(app);
  const replays = new InMemoryAssertionReplayStore();
  const keys = new KeySetCache({ fetch: server.fetch, refreshCooldownMs: options.cooldownMs ?? 0 });
  const verifier = new ClientAssertionVerifier(
    keys,
    new AssertionReplays(replays),
    { issuer: TEST_ISSUER, tokenEndpoint: TOKEN_ENDPOINT },
    clock,
  );
  const hasher = { ...testArgon2idHasher, verify: jest.fn(testArgon2idHasher.verify) };
  const authenticator = new ClientAuthenticator(applications, hasher, verifier);
  let jtis = 0;
  /** A client assertion as oauth4webapi builds one, with `claims` changed. */
  const assertion = (claims: JWTPayload = {}, key: Key = es, header: Record<string, unknown> = {}) => {
    const now = clock.seconds;
    return new SignJWT({
      iss: CLIENT_ID,
      sub: CLIENT_ID,
      aud: TEST_ISSUER,
      iat: now,
      nbf: now,
      exp: now + 60,
      jti: `jti-${(jtis += 1)}`,
      ...claims,
    })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, ...header })
      .sign(key.privateKey);
  };
  const present = async (jwt: string | Promise<string>, params: Record<string, string> = {}) =>
    authenticator.authenticate(
      readClientCredentials(
        {
          client_id: CLIENT_ID,
          client_assertion_type: CLIENT_ASSERTION_TYPE,
          client_assertion: await jwt,
          ...params,
        },
        undefined,
      ),
    );
  return { clock, es, server, applications, authenticator, hasher, assertion, present, replays };
}

describe(ClientAssertionVerifier.name, () => {
  it('authenticates a client by an assertion signed with a registered key, without argon2', async () => {
    const { present, assertion, hasher } = await setUp();
    const client = await present(assertion());
    expect(client.app.clientId).toBe(CLIENT_ID);
    expect(client.authenticatedWithSecret).toBe(true);
    expect(presentedOwnCredentials(client)).toBe(true);
    expect(hasher.verify).not.toHaveBeenCalled();
  });

  it('accepts the token endpoint URL as the audience too (OpenID Connect Core section 9)', async () => {
    const { present, assertion } = await setUp();
    await expect(present(assertion({ aud: TOKEN_ENDPOINT }))).resolves.toMatchObject({
      app: { clientId: CLIENT_ID },
    });
  });

  it('reads the client_id from the assertion when the form has none', async () => {
    const { authenticator, assertion } = await setUp();
    const credentials = readClientCredentials(
      { client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await assertion() },
      undefined,
    );
    expect(credentials).toMatchObject({ clientId: CLIENT_ID, method: 'private_key_jwt' });
    await expect(authenticator.authenticate(credentials)).resolves.toMatchObject({
      app: { clientId: CLIENT_ID },
    });
  });

  it.each([
    ['another iss', { iss: 'someone-else' }],
    ['another sub', { sub: 'someone-else' }],
    ['another audience', { aud: 'https://other.example.com' }],
    ['an audience array naming other servers too', { aud: [TEST_ISSUER, 'https://other.example.com'] }],
    ['an expired assertion', { exp: Math.floor(TEST_START.getTime() / 1000) - 120 }],
    ['an exp more than 5 minutes ahead', { exp: Math.floor(TEST_START.getTime() / 1000) + 600 }],
    ['an iat in the future', { iat: Math.floor(TEST_START.getTime() / 1000) + 600 }],
    ['an nbf in the future', { nbf: Math.floor(TEST_START.getTime() / 1000) + 600 }],
    ['no exp', { exp: undefined }],
    ['no jti', { jti: undefined }],
  ])('refuses %s as invalid_client, saying nothing of why', async (_, claims) => {
    const { present, assertion } = await setUp();
    const refusal = present(assertion(claims));
    await expectOAuthError(refusal, 'invalid_client');
    await expect(refusal).rejects.toMatchObject({ description: 'client authentication failed' });
  });

  it('refuses a jti used before, from the first reuse on', async () => {
    const { present, assertion } = await setUp();
    const jwt = await assertion({ jti: 'once-only' });
    await present(jwt);
    await expectOAuthError(present(jwt), 'invalid_client');
    // Another assertion with the same jti is the same replay.
    await expectOAuthError(present(assertion({ jti: 'once-only' })), 'invalid_client');
  });

  it('lets one of two uses of a jti through when both arrive together', async () => {
    const { present, assertion } = await setUp();
    const jwt = await assertion();
    const outcomes = await Promise.allSettled([present(jwt), present(jwt)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('refuses an unsigned assertion (alg none)', async () => {
    const { present, clock } = await setUp();
    const unsigned = new UnsecuredJWT({ jti: 'x', exp: clock.seconds + 60 })
      .setIssuer(CLIENT_ID)
      .setSubject(CLIENT_ID)
      .setAudience(TEST_ISSUER)
      .encode();
    await expectOAuthError(present(unsigned), 'invalid_client');
  });

  it('refuses an HS256 assertion, whatever key it names', async () => {
    const { present, clock, es } = await setUp();
    const hmac = await new SignJWT({
      iss: CLIENT_ID,
      sub: CLIENT_ID,
      aud: TEST_ISSUER,
      jti: 'h',
      exp: clock.seconds + 60,
    })
      .setProtectedHeader({ alg: 'HS256', kid: es.kid })
      .sign(new TextEncoder().encode(JSON.stringify(es.jwk)));
    await expectOAuthError(present(hmac), 'invalid_client');
  });

  it('refuses an assertion signed by a key not in the set, even under a registered kid', async () => {
    const { present, assertion } = await setUp();
    const stranger = await keyPair('ES256', 'es-1');
    await expectOAuthError(present(assertion({}, stranger)), 'invalid_client');
  });

  it('accepts RS256 and PS256 keys of the set', async () => {
    const { present, assertion, applications, es } = await setUp();
    const rs = await keyPair('RS256', 'rs-1');
    const ps = await keyPair('PS256', 'ps-1');
    await applications.deleteApplication(CLIENT_ID);
    await applications.insertApplication(
      anApplication({
        clientId: CLIENT_ID,
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks: { keys: [es.jwk, rs.jwk, ps.jwk] },
      }),
    );
    await expect(present(assertion({}, rs))).resolves.toBeDefined();
    await expect(present(assertion({}, ps))).resolves.toBeDefined();
  });

  it('fetches a jwks_uri once, and again for an unknown kid (a rotation)', async () => {
    const { present, assertion, server } = await setUp({ registered: 'uri' });
    await present(assertion());
    await present(assertion());
    expect(server.fetches).toBe(1);

    const next = await keyPair('ES256', 'es-2');
    server.keys = [next.jwk];
    await expect(present(assertion({}, next))).resolves.toMatchObject({ app: { clientId: CLIENT_ID } });
    expect(server.fetches).toBe(2);
  });

  it('fetches again for unknown kids at most once per cooldown', async () => {
    const { present, assertion, server } = await setUp({ registered: 'uri', cooldownMs: 60_000 });
    await present(assertion());
    const unknown = await keyPair('ES256', 'made-up');
    for (let attempt = 0; attempt < 5; attempt++) {
      await expectOAuthError(present(assertion({}, unknown)), 'invalid_client');
    }
    expect(server.fetches).toBe(1);
  });

  it('refuses an assertion from an app registered with a secret, and a secret from a private_key_jwt app', async () => {
    const { authenticator, applications, present, assertion } = await setUp();
    await applications.insertApplication(
      anApplication({ clientId: 'secret-app', secretHash: await testArgon2idHasher.hash('s3cret') }),
    );
    const forSecretApp = await assertion({ iss: 'secret-app', sub: 'secret-app' });
    await expectOAuthError(
      authenticator.authenticate({
        clientId: 'secret-app',
        clientSecret: undefined,
        method: 'private_key_jwt',
        assertion: forSecretApp,
      }),
      'invalid_client',
    );
    await expectOAuthError(
      authenticator.authenticate({
        clientId: CLIENT_ID,
        clientSecret: 'guess',
        method: 'client_secret_post',
      }),
      'invalid_client',
    );
    // client_id alone identifies it but does not authenticate it: it is no public client.
    const idOnly = await authenticator.authenticate({
      clientId: CLIENT_ID,
      clientSecret: undefined,
      method: 'none',
    });
    expect(presentedOwnCredentials(idOnly)).toBe(false);
    await expect(present(assertion())).resolves.toBeDefined();
  });

  it('refuses an assertion beside a secret or Basic credentials, and another assertion type', async () => {
    const { assertion } = await setUp();
    const jwt = await assertion();
    const read = (params: Record<string, string>, authorization?: string) => () =>
      readClientCredentials(
        { client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: jwt, ...params },
        authorization,
      );
    expect(read({ client_secret: 's' })).toThrow(OAuthError);
    expect(read({}, `Basic ${Buffer.from(`${CLIENT_ID}:s`).toString('base64')}`)).toThrow(OAuthError);
    expect(
      read({ client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer' }),
    ).toThrow(/client_assertion_type/);
  });
});
