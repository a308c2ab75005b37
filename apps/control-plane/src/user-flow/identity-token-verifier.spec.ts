import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { IdentityTokenVerifier } from './identity-token-verifier';

/** An identity provider of its own: discovery and key set over HTTP, as the real one serves them. */
async function provider(): Promise<{
  issuer: string;
  key: CryptoKey;
  server: Server;
  serving(up: boolean): void;
}> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'idp-1', alg: 'RS256', use: 'sig' };
  let up = true;
  const server = createServer((request, response) => {
    if (!up) return void response.writeHead(503).end();
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const documents: Record<string, unknown> = {
      '/.well-known/openid-configuration': { issuer, jwks_uri: `${issuer}/jwks` },
      '/jwks': { keys: [jwk] },
    };
    const document = documents[request.url ?? ''];
    if (document === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, key: privateKey, server, serving: (value) => (up = value) };
}

const idToken = (
  key: CryptoKey,
  issuer: string,
  claims: Record<string, unknown>,
  audience = 'platform-backend',
) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'idp-1' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject('root')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);

describe(IdentityTokenVerifier.name, () => {
  let idp: Awaited<ReturnType<typeof provider>>;
  let verifier: IdentityTokenVerifier;

  beforeEach(async () => {
    idp = await provider();
    verifier = new IdentityTokenVerifier({ issuer: idp.issuer, clientId: 'platform-backend' });
  });
  afterEach(() => idp.server.close());

  it("reads tenant and roles from the provider's signed claims, only email and name from UserInfo", async () => {
    const token = await idToken(idp.key, idp.issuer, { tenant: 'platform', roles: ['global_admin'] });
    const identity = await verifier.verify({
      idToken: token,
      userInfo: { sub: 'root', email: 'root@platform.example', name: 'Root', roles: ['viewer'], tenant: 'x' },
    });
    expect(identity).toMatchObject({
      issuer: idp.issuer,
      subject: 'root',
      claims: { tenant: 'platform', roles: ['global_admin'], email: 'root@platform.example', name: 'Root' },
    });
  });

  it('gives unsigned UserInfo no say in roles, even when the ID token has none', async () => {
    const token = await idToken(idp.key, idp.issuer, {});
    const identity = await verifier.verify({
      idToken: token,
      userInfo: { sub: 'root', roles: ['global_admin'] },
    });
    expect(identity.claims.roles).toBeUndefined();
  });

  it('refuses a token the provider did not sign, nor for this client, nor from this issuer', async () => {
    const { privateKey: forger } = await generateKeyPair('RS256');
    const refusals = [
      await idToken(forger, idp.issuer, { roles: ['global_admin'] }),
      await idToken(idp.key, idp.issuer, { roles: ['global_admin'] }, 'another-client'),
      await idToken(idp.key, 'https://idp.elsewhere.example', { roles: ['global_admin'] }),
      'not-a-jwt',
    ];
    for (const token of refusals) {
      await expect(verifier.verify({ idToken: token })).rejects.toMatchObject({ code: 'unauthenticated' });
    }
  });

  it('fetches the keys from OIDC_JWKS_URL without discovery, still checking the issuer', async () => {
    const byKeys = new IdentityTokenVerifier({
      issuer: 'http://localhost:5556/dex',
      clientId: 'platform-backend',
      jwksUrl: `${idp.issuer}/jwks`,
    });
    idp.serving(false);
    const token = await idToken(idp.key, 'http://localhost:5556/dex', { roles: ['viewer'] });
    await expect(byKeys.verify({ idToken: token })).rejects.toMatchObject({ code: 'unavailable' });
    idp.serving(true);
    await expect(byKeys.verify({ idToken: token })).resolves.toMatchObject({ claims: { roles: ['viewer'] } });
    const elsewhere = await idToken(idp.key, idp.issuer, {});
    await expect(byKeys.verify({ idToken: elsewhere })).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('answers unavailable without an identity provider, or while it is down, and tries again later', async () => {
    const unconfigured = new IdentityTokenVerifier({ issuer: undefined, clientId: undefined });
    await expect(unconfigured.verify({ idToken: 'x' })).rejects.toMatchObject({ code: 'unavailable' });
    idp.serving(false);
    const token = await idToken(idp.key, idp.issuer, {});
    await expect(verifier.verify({ idToken: token })).rejects.toMatchObject({ code: 'unavailable' });
    // A failed discovery is not remembered: the next login discovers again.
    idp.serving(true);
    await expect(verifier.verify({ idToken: token })).resolves.toMatchObject({ subject: 'root' });
  });
});
