import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import {
  adminToken,
  basic,
  clientCredentialsToken,
  discover,
  postForm,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

describe('POST /v1/oauth/token (client_credentials)', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let app: RegisteredApp & { client_secret: string };

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    const admin = await adminToken(as, platform);
    app = (await registerApp(platform, admin, {
      client_id: 'billing-worker',
      declared_scopes: ['jobs.*', 'files.read'],
    })) as RegisteredApp & { client_secret: string };
  });

  const tokenUrl = () => `${platform.baseUrl}/v1/oauth/token`;

  it('publishes RFC 8414 metadata that oauth4webapi accepts', () => {
    expect(as.issuer).toBe(platform.baseUrl);
    expect(as.token_endpoint).toBe(`${platform.baseUrl}/v1/oauth/token`);
    expect(as.jwks_uri).toBe(`${platform.baseUrl}/v1/jwks`);
    expect(as.introspection_endpoint).toBe(`${platform.baseUrl}/v1/oauth/introspect`);
    expect(as.revocation_endpoint).toBe(`${platform.baseUrl}/v1/oauth/revoke`);
    expect(as.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post']),
    );
  });

  it('issues an RS256 at+jwt with every declared scope when scope is omitted (client_secret_basic)', async () => {
    const response = await clientCredentialsToken(as, {
      clientId: app.client_id,
      clientSecret: app.client_secret,
    });
    expect(response.token_type).toBe('bearer'); // oauth4webapi lower-cases it
    expect(response.expires_in).toBe(3600);
    expect(response.scope).toBe('jobs.* files.read');
    expect(response.refresh_token).toBeUndefined();

    const jwks = createRemoteJWKSet(new URL(as.jwks_uri!));
    const { payload, protectedHeader } = await jwtVerify(response.access_token, jwks, {
      issuer: platform.baseUrl,
      audience: platform.baseUrl,
      typ: 'at+jwt',
      algorithms: ['RS256'],
    });
    expect(protectedHeader.kid).toEqual(expect.any(String));
    expect(payload).toMatchObject({
      sub: app.client_id,
      client_id: app.client_id,
      scope: 'jobs.* files.read',
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(payload.jti).toEqual(expect.any(String));
  });

  it('grants a narrower scope covered by a wildcard (client_secret_post via openid-client)', async () => {
    const config = await client.discovery(
      new URL(platform.baseUrl),
      app.client_id,
      undefined,
      client.ClientSecretPost(app.client_secret),
      { execute: [client.allowInsecureRequests], algorithm: 'oauth2' },
    );
    const tokens = await client.clientCredentialsGrant(config, { scope: 'jobs.read jobs.write' });
    expect(tokens.scope).toBe('jobs.read jobs.write');
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
  });

  it('answers every token response with Cache-Control: no-store', async () => {
    const response = await postForm(
      tokenUrl(),
      { grant_type: 'client_credentials' },
      { authorization: basic(app.client_id, app.client_secret) },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a wrong secret with 401 invalid_client and a Basic challenge', async () => {
    const response = await postForm(
      tokenUrl(),
      { grant_type: 'client_credentials' },
      { authorization: basic(app.client_id, 'wrong-secret') },
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses a wrong secret sent in the form with 401 invalid_client', async () => {
    const response = await postForm(tokenUrl(), {
      grant_type: 'client_credentials',
      client_id: app.client_id,
      client_secret: 'wrong-secret',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses an unknown client with 401 invalid_client', async () => {
    const response = await postForm(tokenUrl(), {
      grant_type: 'client_credentials',
      client_id: 'nobody',
      client_secret: 'x',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses an undeclared scope with 400 invalid_scope', async () => {
    const response = await postForm(
      tokenUrl(),
      { grant_type: 'client_credentials', scope: 'secrets.read' },
      { authorization: basic(app.client_id, app.client_secret) },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('refuses an unknown grant type with 400 unsupported_grant_type', async () => {
    const response = await postForm(
      tokenUrl(),
      { grant_type: 'password', username: 'u', password: 'p' },
      {
        authorization: basic(app.client_id, app.client_secret),
      },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('refuses a missing grant_type with 400 invalid_request', async () => {
    const response = await postForm(
      tokenUrl(),
      {},
      { authorization: basic(app.client_id, app.client_secret) },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a JSON body with 400 invalid_request', async () => {
    const response = await fetch(tokenUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: app.client_id,
        client_secret: app.client_secret,
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a malformed form body and an oversized one with a 4xx, never a 5xx', async () => {
    const malformed = await fetch(tokenUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&grant_type=client_credentials&%%%',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: 'invalid_request' });

    const oversized = await postForm(tokenUrl(), {
      grant_type: 'client_credentials',
      padding: 'x'.repeat(200_000),
    });
    expect(oversized.status).toBeGreaterThanOrEqual(400);
    expect(oversized.status).toBeLessThan(500);
    const body = (await oversized.json()) as { error: string };
    expect(body.error).toBe('invalid_request');
  });

  it('refuses client credentials sent both in the header and the form', async () => {
    const response = await postForm(
      tokenUrl(),
      { grant_type: 'client_credentials', client_secret: app.client_secret },
      { authorization: basic(app.client_id, app.client_secret) },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });
});
