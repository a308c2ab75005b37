import { createHash, randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { DpopKey, PlatformClient, ServiceTokenSource } from '@platform/sdk';
import { createAuthServiceClient, type AuthServiceClient } from '@platform/grpc';
import {
  calculateJwkThumbprint,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { adminToken, discover, postForm, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { authorize, clientFor, createSession, introspectAsAdmin } from '../../support/internal-consent';

/** RFC 9449 on the built processes: its own apps on the shared platform (names `dpop-e2e-*`). */
describe('DPoP (RFC 9449)', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let worker: RegisteredApp & { client_secret: string };
  let required: RegisteredApp & { client_secret: string };
  let spa: RegisteredApp;
  let keys: oauth.CryptoKeyPair;
  let other: oauth.CryptoKeyPair;
  let sidecar: AuthServiceClient;

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    const admin = await adminToken(as, platform);
    [worker, required, spa, keys, other] = (await Promise.all([
      registerApp(platform, admin, { client_id: 'dpop-e2e-worker', declared_scopes: ['jobs.read'] }),
      registerApp(platform, admin, {
        client_id: 'dpop-e2e-required',
        declared_scopes: ['jobs.read'],
        dpop_bound_access_tokens: true,
      } as Partial<RegisteredApp> & { client_id: string }),
      registerApp(platform, admin, {
        client_id: 'dpop-e2e-spa',
        app_type: 'spa',
        declared_scopes: ['jobs.read'],
        redirect_uris: ['https://dpop-e2e.example.test/callback'],
      }),
      oauth.generateKeyPair('ES256'),
      oauth.generateKeyPair('ES256'),
    ])) as [
      RegisteredApp & { client_secret: string },
      RegisteredApp & { client_secret: string },
      RegisteredApp,
      oauth.CryptoKeyPair,
      oauth.CryptoKeyPair,
    ];
    sidecar = createAuthServiceClient(platform.sidecarAddress);
  });
  afterAll(() => sidecar?.close());

  const tokenUrl = () => `${platform.baseUrl}/v1/oauth/token`;
  const meUrl = () => `${platform.baseUrl}/v1/me`;
  const insecure = { [oauth.allowInsecureRequests]: true } as const;

  /** client_credentials through oauth4webapi, unmodified, with its DPoP handle. */
  async function boundToken(app = worker, pair = keys): Promise<oauth.TokenEndpointResponse> {
    const dpop = oauth.DPoP({}, pair);
    const request = () =>
      oauth.clientCredentialsGrantRequest(
        as,
        { client_id: app.client_id },
        oauth.ClientSecretBasic(app.client_secret),
        new URLSearchParams(),
        { DPoP: dpop, ...insecure },
      );
    return oauth.processClientCredentialsResponse(as, { client_id: app.client_id }, await request());
  }

  it('advertises the proof algorithms', () => {
    expect(as.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256', 'PS256']));
  });

  it('oauth4webapi gets a token bound to its key and calls /v1/me with it', async () => {
    const tokens = await boundToken();
    expect(tokens.token_type).toBe('dpop');
    const jkt = await calculateJwkThumbprint(await exportJWK(keys.publicKey));
    expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt });

    const dpop = oauth.DPoP({}, keys);
    for (let call = 0; call < 2; call++) {
      // The second call is answered from the backend's cache: its proof is checked all the same.
      const response = await oauth.protectedResourceRequest(
        tokens.access_token,
        'GET',
        new URL(meUrl()),
        undefined,
        null,
        {
          DPoP: dpop,
          ...insecure,
        },
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ sub: worker.client_id });
    }
  });

  it('openid-client gets a bound token with getDPoPHandle and calls /v1/me with it', async () => {
    const config = await client.discovery(
      new URL(platform.baseUrl),
      worker.client_id,
      undefined,
      client.ClientSecretPost(worker.client_secret),
      { execute: [client.allowInsecureRequests], algorithm: 'oauth2' },
    );
    const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const tokens = await client.clientCredentialsGrant(config, { scope: 'jobs.read' }, { DPoP });
    expect(tokens.token_type).toBe('dpop');

    const response = await client.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(meUrl()),
      'GET',
      undefined,
      undefined,
      {
        DPoP,
      },
    );
    expect(response.status).toBe(200);
  });

  it('the SDK, given a DPoP key, gets bound tokens and calls /v1/me with proofs', async () => {
    const key = await DpopKey.generate();
    const options = {
      baseUrl: platform.baseUrl,
      clientId: worker.client_id,
      clientSecret: worker.client_secret,
    };
    const tokens = new ServiceTokenSource({ ...options, dpop: key });
    const token = await tokens.getToken();
    expect(decodeJwt(token).cnf).toEqual({ jkt: await key.thumbprint() });

    const sdk = new PlatformClient({ baseUrl: platform.baseUrl, tokens, dpop: key });
    await expect(sdk.me()).resolves.toMatchObject({ sub: worker.client_id });
    await expect(sdk.me()).resolves.toMatchObject({ sub: worker.client_id });
  });

  it('refuses a bound token presented as Bearer, and a Bearer token presented as DPoP', async () => {
    const tokens = await boundToken();
    const asBearer = await fetch(meUrl(), { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);

    const plain = await postForm(
      tokenUrl(),
      { grant_type: 'client_credentials' },
      {
        authorization: `Basic ${Buffer.from(`${worker.client_id}:${worker.client_secret}`).toString('base64')}`,
      },
    );
    const { access_token, token_type } = (await plain.json()) as { access_token: string; token_type: string };
    expect(token_type).toBe('Bearer');
    const asDpop = await fetch(meUrl(), {
      headers: {
        authorization: `DPoP ${access_token}`,
        dpop: await proof(keys, { htu: meUrl(), ath: ath(access_token) }),
      },
    });
    expect(asDpop.status).toBe(401);
    expect(asDpop.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token"/);
  });

  describe('refusals of RFC 9449 section 4.3 at the backend', () => {
    let token: string;
    beforeAll(async () => {
      token = (await boundToken()).access_token;
    });

    const call = async (value: string, method = 'GET') =>
      fetch(meUrl(), { method, headers: { authorization: `DPoP ${token}`, dpop: value } });

    it.each([
      ['another method', { htm: 'POST' }],
      ['another URL', { htu: 'URL/v1/ping' }],
      ['a stale iat', { iat: Math.floor(Date.now() / 1000) - 300 }],
      ['an iat in the future', { iat: Math.floor(Date.now() / 1000) + 300 }],
      ['no ath', { ath: undefined }],
    ])('%s', async (_, claims: Record<string, unknown>) => {
      const htu = typeof claims.htu === 'string' ? claims.htu.replace('URL', platform.baseUrl) : meUrl();
      const response = await call(await proof(keys, { ath: ath(token), ...claims, htu }));
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof"/);
    });

    it('a replayed jti', async () => {
      const value = await proof(keys, { htu: meUrl(), ath: ath(token) });
      expect((await call(value)).status).toBe(200);
      const replayed = await call(value);
      expect(replayed.status).toBe(401);
      expect(replayed.headers.get('www-authenticate')).toMatch(/invalid_dpop_proof.*already used/);
    });

    it('another key than the token is bound to', async () => {
      const response = await call(await proof(other, { htu: meUrl(), ath: ath(token) }));
      expect(response.headers.get('www-authenticate')).toMatch(/invalid_dpop_proof.*bound to/);
    });

    it('alg none, a private key in jwk, a wrong typ', async () => {
      const jwk = await exportJWK(keys.publicKey);
      const none = [
        { alg: 'none', typ: 'dpop+jwt', jwk },
        { jti: randomUUID(), htm: 'GET', htu: meUrl(), iat: now(), ath: ath(token) },
      ]
        .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
        .join('.');
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const leaked = await sign(privateKey, await exportJWK(privateKey), { htu: meUrl(), ath: ath(token) });
      const typ = await sign(keys.privateKey, jwk, { htu: meUrl(), ath: ath(token) }, 'JWT');
      for (const value of [`${none}.`, leaked, typ]) {
        const response = await call(value);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof"/);
      }
    });
  });

  describe('at the token endpoint', () => {
    it('refuses a proof for another method or URL (invalid_dpop_proof)', async () => {
      for (const claims of [{ htm: 'GET', htu: tokenUrl() }, { htu: `${platform.baseUrl}/v1/oauth/other` }]) {
        const response = await postForm(
          tokenUrl(),
          {
            grant_type: 'client_credentials',
            client_id: worker.client_id,
            client_secret: worker.client_secret,
          },
          { dpop: await proof(keys, { htm: 'POST', ...claims }) },
        );
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ error: 'invalid_dpop_proof' });
      }
    });

    it('refuses an app registered to require DPoP without a proof, and binds with one', async () => {
      const without = await postForm(tokenUrl(), {
        grant_type: 'client_credentials',
        client_id: required.client_id,
        client_secret: required.client_secret,
      });
      expect(without.status).toBe(400);
      expect(await without.json()).toMatchObject({ error: 'invalid_dpop_proof' });
      expect((await boundToken(required)).token_type).toBe('dpop');

      // PATCH /v1/oauth/apps/{id} lifts the rule: the next request without a proof is served.
      const patched = await fetch(`${platform.baseUrl}/v1/oauth/apps/${required.client_id}`, {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${await adminToken(as, platform)}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ dpop_bound_access_tokens: false }),
      });
      expect(await patched.json()).toMatchObject({ dpop_bound_access_tokens: false });
      const lifted = await postForm(tokenUrl(), {
        grant_type: 'client_credentials',
        client_id: required.client_id,
        client_secret: required.client_secret,
      });
      expect(await lifted.json()).toMatchObject({ token_type: 'Bearer' });
    });

    it('shows cnf at introspection', async () => {
      const { access_token } = await boundToken();
      const jkt = await calculateJwkThumbprint(await exportJWK(keys.publicKey));
      expect(await introspectAsAdmin(platform, access_token)).toMatchObject({
        active: true,
        token_type: 'DPoP',
        cnf: { jkt },
      });
    });
  });

  describe("the sidecar's ValidateToken over gRPC", () => {
    const validate = (request: Record<string, string>) =>
      new Promise<{ code: grpc.status; details: string; jkt?: string }>((resolve) =>
        sidecar.ValidateToken(
          request,
          new grpc.Metadata(),
          { deadline: Date.now() + 5000 },
          (error, response) =>
            resolve(
              error
                ? { code: error.code, details: error.details }
                : { code: grpc.status.OK, details: '', jkt: response?.claims?.cnf?.jkt },
            ),
        ),
      );

    it('accepts a bound token with a proof and refuses it without one, replayed, or for another key', async () => {
      const token = (await boundToken()).access_token;
      const url = 'https://reports.dpop-e2e.example/v1/reports';
      const value = await proof(keys, { htm: 'GET', htu: url, ath: ath(token) });
      const presented = { token, dpop_proof: value, http_method: 'GET', http_url: url };
      const jkt = await calculateJwkThumbprint(await exportJWK(keys.publicKey));

      expect(await validate(presented)).toEqual({ code: grpc.status.OK, details: '', jkt });
      expect(await validate(presented)).toMatchObject({
        code: grpc.status.UNAUTHENTICATED,
        details: expect.stringMatching(/^invalid_dpop_proof: .*already used/),
      });
      expect(await validate({ token })).toMatchObject({
        code: grpc.status.UNAUTHENTICATED,
        details: expect.stringMatching(/DPoP-bound/),
      });
      const stolen = await proof(other, { htm: 'GET', htu: url, ath: ath(token) });
      expect(await validate({ ...presented, dpop_proof: stolen })).toMatchObject({
        details: expect.stringMatching(/bound to/),
      });
      const elsewhere = await proof(keys, { htm: 'GET', htu: url, ath: ath(token) });
      expect(await validate({ ...presented, dpop_proof: elsewhere, http_method: 'POST' })).toMatchObject({
        details: expect.stringMatching(/htm/),
      });
    });
  });

  it("binds a public client's refresh token: only a proof of the same key refreshes it", async () => {
    const config = await clientFor(platform, spa);
    const DPoP = client.getDPoPHandle(config, keys);
    const { session } = await createSession(platform);
    const { callback, verifier, state } = await authorize(platform, config, {
      session,
      redirectUri: spa.redirect_uris[0],
    });
    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, expectedState: state },
      undefined,
      { DPoP },
    );
    expect(tokens.token_type).toBe('dpop');

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
    expect(refreshed.token_type).toBe('dpop');

    const withoutProof = await postForm(tokenUrl(), {
      grant_type: 'refresh_token',
      client_id: spa.client_id,
      refresh_token: refreshed.refresh_token!,
    });
    expect(await withoutProof.json()).toMatchObject({ error: 'invalid_dpop_proof' });
    const thief = client.getDPoPHandle(config, other);
    await expect(
      client.refreshTokenGrant(config, refreshed.refresh_token!, undefined, { DPoP: thief }),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});

const now = () => Math.floor(Date.now() / 1000);

function ath(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** A proof by hand, for the refusals no client library would send. */
async function proof(pair: oauth.CryptoKeyPair, claims: Record<string, unknown>): Promise<string> {
  return sign(pair.privateKey, await exportJWK(pair.publicKey), claims);
}

function sign(
  privateKey: CryptoKey,
  jwk: JWK,
  claims: Record<string, unknown>,
  typ = 'dpop+jwt',
): Promise<string> {
  return new SignJWT({ jti: randomUUID(), htm: 'GET', iat: now(), ...claims })
    .setProtectedHeader({ alg: 'ES256', typ, jwk })
    .sign(privateKey);
}
