import { randomUUID } from 'node:crypto';
import { exportJWK, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { adminToken, discover, postForm, registerApp, type RegisteredApp } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';

/** RFC 9449 section 8: server nonces at the token endpoint (its own platform: DPOP_NONCE_REQUIRED). */
describe('DPoP server nonces (DPOP_NONCE_REQUIRED=true)', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let worker: RegisteredApp & { client_secret: string };
  let keys: oauth.CryptoKeyPair;

  beforeAll(async () => {
    platform = await startPlatform({ env: { DPOP_NONCE_REQUIRED: 'true' } });
    as = await discover(platform);
    worker = (await registerApp(platform, await adminToken(as, platform), {
      client_id: 'nonce-worker',
      declared_scopes: ['jobs.read'],
    })) as RegisteredApp & { client_secret: string };
    keys = await oauth.generateKeyPair('ES256');
  });
  afterAll(() => platform?.stop());

  const tokenUrl = () => `${platform.baseUrl}/v1/oauth/token`;
  const form = () => ({
    grant_type: 'client_credentials',
    client_id: worker.client_id,
    client_secret: worker.client_secret,
  });
  const proof = async (claims: Record<string, unknown> = {}) =>
    new SignJWT({
      jti: randomUUID(),
      htm: 'POST',
      htu: tokenUrl(),
      iat: Math.floor(Date.now() / 1000),
      ...claims,
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(keys.publicKey) })
      .sign(keys.privateKey);

  it('answers a proof without a nonce use_dpop_nonce with DPoP-Nonce, and accepts it with that nonce', async () => {
    const first = await postForm(tokenUrl(), form(), { dpop: await proof() });
    expect(first.status).toBe(400);
    expect(await first.json()).toMatchObject({ error: 'use_dpop_nonce' });
    const nonce = first.headers.get('dpop-nonce');
    expect(nonce).toEqual(expect.any(String));

    const second = await postForm(tokenUrl(), form(), { dpop: await proof({ nonce }) });
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ token_type: 'DPoP' });
    expect(second.headers.get('dpop-nonce')).toBe(nonce);

    const forged = await postForm(tokenUrl(), form(), { dpop: await proof({ nonce: `${nonce}x` }) });
    expect(await forged.json()).toMatchObject({ error: 'use_dpop_nonce' });
  });

  it('oauth4webapi retries with the nonce once isDPoPNonceError says so', async () => {
    const DPoP = oauth.DPoP({}, keys);
    const request = () =>
      oauth.clientCredentialsGrantRequest(
        as,
        { client_id: worker.client_id },
        oauth.ClientSecretBasic(worker.client_secret),
        new URLSearchParams(),
        { DPoP, [oauth.allowInsecureRequests]: true },
      );
    const refused = await oauth
      .processClientCredentialsResponse(as, { client_id: worker.client_id }, await request())
      .catch((error: unknown) => error);
    expect(oauth.isDPoPNonceError(refused)).toBe(true);

    const tokens = await oauth.processClientCredentialsResponse(
      as,
      { client_id: worker.client_id },
      await request(),
    );
    expect(tokens.token_type).toBe('dpop');
  });

  it('openid-client handles the nonce on its own', async () => {
    const config = await client.discovery(
      new URL(platform.baseUrl),
      worker.client_id,
      undefined,
      client.ClientSecretPost(worker.client_secret),
      { execute: [client.allowInsecureRequests], algorithm: 'oauth2' },
    );
    const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    expect((await client.clientCredentialsGrant(config, undefined, { DPoP })).token_type).toBe('dpop');
  });
});
