import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { decodeJwt, exportJWK, generateKeyPair, type JWK } from 'jose';
import { adminToken, discover, postForm, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

const INSECURE = { [oauth.allowInsecureRequests]: true } as const;

/** A client's key pair: the private half stays with it, the public half is registered. */
async function clientKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  return { key: privateKey, kid, jwk };
}

describe('private_key_jwt (RFC 7523 section 2.2) at the token, introspection and revocation endpoints', () => {
  const suffix = randomUUID().slice(0, 8);
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let admin: string;
  let key: Awaited<ReturnType<typeof clientKey>>;
  let app: RegisteredApp;
  let keyServer: Server;

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    admin = await adminToken(as, platform);
    key = await clientKey(`pkj-${suffix}`);
    app = await registerApp(platform, admin, {
      client_id: `pkj-worker-${suffix}`,
      declared_scopes: ['jobs.read', 'files.read'],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [key.jwk] },
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => (keyServer ? keyServer.close(resolve) : resolve(undefined)));
  });

  const tokenWith = async (
    clientId: string,
    auth: oauth.ClientAuth,
    options: oauth.TokenEndpointRequestOptions = {},
  ) =>
    oauth.processClientCredentialsResponse(
      as,
      { client_id: clientId },
      await oauth.clientCredentialsGrantRequest(
        as,
        { client_id: clientId },
        auth,
        new URLSearchParams({ scope: 'jobs.read' }),
        { ...INSECURE, ...options },
      ),
    );

  it('is advertised in the metadata, with asymmetric algorithms only', () => {
    expect(as.token_endpoint_auth_methods_supported).toContain('private_key_jwt');
    expect(as.introspection_endpoint_auth_methods_supported).toContain('private_key_jwt');
    expect(as.token_endpoint_auth_signing_alg_values_supported).toEqual(['RS256', 'PS256', 'ES256']);
  });

  it('registers an app with no secret at all', () => {
    expect(app.client_secret).toBeUndefined();
    expect(app).toMatchObject({ token_endpoint_auth_method: 'private_key_jwt', jwks_uri: null });
  });

  it('issues a token to oauth4webapi’s PrivateKeyJwt, which introspection accepts from the same client', async () => {
    const auth = oauth.PrivateKeyJwt({ key: key.key, kid: key.kid });
    const token = await tokenWith(app.client_id, auth);
    expect(decodeJwt(token.access_token)).toMatchObject({ client_id: app.client_id, scope: 'jobs.read' });

    const response = await oauth.introspectionRequest(
      as,
      { client_id: app.client_id },
      oauth.PrivateKeyJwt({ key: key.key, kid: key.kid }),
      token.access_token,
      INSECURE,
    );
    const introspection = await oauth.processIntrospectionResponse(
      as,
      { client_id: app.client_id },
      response,
    );
    expect(introspection).toMatchObject({ active: true, client_id: app.client_id });

    const revoked = await oauth.revocationRequest(
      as,
      { client_id: app.client_id },
      oauth.PrivateKeyJwt({ key: key.key, kid: key.kid }),
      token.access_token,
      INSECURE,
    );
    await oauth.processRevocationResponse(revoked);
  });

  it('issues a token to openid-client’s PrivateKeyJwt, stock', async () => {
    const config = await client.discovery(
      new URL(platform.baseUrl),
      app.client_id,
      undefined,
      client.PrivateKeyJwt({ key: key.key, kid: key.kid }),
      { execute: [client.allowInsecureRequests], algorithm: 'oauth2' },
    );
    const tokens = await client.clientCredentialsGrant(config, { scope: 'files.read' });
    expect(decodeJwt(tokens.access_token)).toMatchObject({ client_id: app.client_id, scope: 'files.read' });
    await expect(client.tokenIntrospection(config, tokens.access_token)).resolves.toMatchObject({
      active: true,
    });
  });

  it('refuses the same assertion sent again, across requests: invalid_client naming nothing', async () => {
    let sent: string | undefined;
    // The library sends as always; the spec only keeps a copy of the form it sent.
    const recording = {
      [oauth.customFetch]: (url: string, init: RequestInit) => {
        sent = String(init.body);
        return fetch(url, init);
      },
    };
    await tokenWith(app.client_id, oauth.PrivateKeyJwt({ key: key.key, kid: key.kid }), recording);
    const replay = await fetch(as.token_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: sent,
    });
    expect(replay.status).toBe(401);
    await expect(replay.json()).resolves.toEqual({
      error: 'invalid_client',
      error_description: 'client authentication failed',
    });
  });

  it('refuses an assertion signed by a key the app did not register, and the client_id alone', async () => {
    const stranger = await clientKey(key.kid);
    await expect(
      tokenWith(app.client_id, oauth.PrivateKeyJwt({ key: stranger.key, kid: stranger.kid })),
    ).rejects.toMatchObject({ error: 'invalid_client', status: 401 });
    const idOnly = await postForm(as.token_endpoint!, {
      grant_type: 'client_credentials',
      client_id: app.client_id,
    });
    expect(idOnly.status).toBe(401);
  });

  it('rotates inline keys by PATCH: the new key signs, the dropped one no longer does', async () => {
    const rotating = await clientKey(`pkj-rotating-${suffix}`);
    const next = await clientKey(`pkj-next-${suffix}`);
    const rotatingApp = await registerApp(platform, admin, {
      client_id: `pkj-rotating-${suffix}`,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [rotating.jwk] },
    });
    const patched = await fetch(`${platform.baseUrl}/v1/oauth/apps/${rotatingApp.client_id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jwks: { keys: [next.jwk] } }),
    });
    expect(patched.status).toBe(200);
    await expect(
      tokenWith(rotatingApp.client_id, oauth.PrivateKeyJwt({ key: next.key, kid: next.kid })),
    ).resolves.toMatchObject({ token_type: 'bearer' });
    await expect(
      tokenWith(rotatingApp.client_id, oauth.PrivateKeyJwt({ key: rotating.key, kid: rotating.kid })),
    ).rejects.toMatchObject({ error: 'invalid_client' });
  });

  it('fetches the keys of an app registered with a jwks_uri', async () => {
    const remote = await clientKey(`pkj-remote-${suffix}`);
    keyServer = createServer((_, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: [remote.jwk] }));
    });
    await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
    const { port } = keyServer.address() as AddressInfo;
    const remoteApp = await registerApp(platform, admin, {
      client_id: `pkj-remote-${suffix}`,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: `http://127.0.0.1:${port}/jwks.json`,
    });
    const token = await tokenWith(
      remoteApp.client_id,
      oauth.PrivateKeyJwt({ key: remote.key, kid: remote.kid }),
    );
    expect(decodeJwt(token.access_token)).toMatchObject({ client_id: remoteApp.client_id });
  });
});
