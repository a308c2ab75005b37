import {
  OAuthClient,
  OAuthProtocolError,
  PlatformClient,
  ProblemError,
  ServiceTokenSource,
  UserTokenSource,
} from '@platform/sdk';
import type * as oauth from 'oauth4webapi';
import { adminToken, discover, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { ManualClock } from '@platform/domain';
import { issuedTokenCount, recordingFetch } from './helpers';

const EXPIRES_IN_MS = 3600 * 1000;

describe('ServiceTokenSource and PlatformClient (service model)', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let admin: string;

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    admin = await adminToken(as, platform);
  });

  /** A fresh service app per test, so its token events are this test's alone. */
  const newApp = (clientId: string, declared_scopes = ['jobs.read', 'files.read']) =>
    registerApp(platform, admin, { client_id: clientId, declared_scopes });

  const clientFor = (app: RegisteredApp, options: { clock?: ManualClock; scope?: string } = {}) => {
    const recorder = recordingFetch();
    const tokens = new ServiceTokenSource({
      baseUrl: platform.baseUrl,
      clientId: app.client_id,
      clientSecret: app.client_secret!,
      fetch: recorder.fetch,
      ...options,
    });
    const client = new PlatformClient({ baseUrl: platform.baseUrl, tokens, fetch: recorder.fetch });
    return { client, tokens, recorder };
  };

  it('fetches exactly one token for 50 concurrent calls on a cold cache, and all 50 succeed', async () => {
    const app = await newApp('sdk-concurrent');
    const { client, recorder } = clientFor(app);

    const responses = await Promise.all(Array.from({ length: 50 }, () => client.request('/v1/me')));

    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    const tokenRequest = recorder.sent.find((s) => s.path === '/v1/oauth/token')!;
    expect(tokenRequest.authorization).toMatch(/^Basic /);
    expect(tokenRequest.body).toBe('grant_type=client_credentials');
    expect(recorder.count('POST', '/v1/oauth/token')).toBe(1);
    expect(recorder.count('GET', '/v1/me')).toBe(50);
    expect(await issuedTokenCount(platform, admin, app.client_id)).toBe(1);
  });

  it('reuses the token at 79% of expires_in and fetches a new one at 81%', async () => {
    const app = await newApp('sdk-clock');
    const clock = new ManualClock(new Date());
    const start = clock.now().getTime();
    const { client, tokens } = clientFor(app, { clock });

    const first = await tokens.getToken();
    expect((await tokens.getTokenResponse()).expires_in).toBe(3600);
    clock.set(new Date(start + 0.79 * EXPIRES_IN_MS));
    expect((await client.me()).client_id).toBe(app.client_id);
    expect(await tokens.getToken()).toBe(first);
    expect(await issuedTokenCount(platform, admin, app.client_id)).toBe(1);

    clock.set(new Date(start + 0.81 * EXPIRES_IN_MS));
    expect((await client.me()).client_id).toBe(app.client_id);
    expect(await tokens.getToken()).not.toBe(first);
    expect(await issuedTokenCount(platform, admin, app.client_id)).toBe(2);
  });

  it('after its token is revoked, gets a 401, fetches exactly one new token, retries exactly once and succeeds', async () => {
    const app = await newApp('sdk-revoked');
    const { client, tokens, recorder } = clientFor(app);
    const revoked = await tokens.getToken();
    await new OAuthClient({
      baseUrl: platform.baseUrl,
      clientId: app.client_id,
      clientSecret: app.client_secret!,
    }).revoke(revoked);
    recorder.calls.length = 0;

    const me = await client.me();

    expect(me).toMatchObject({ sub: app.client_id, client_id: app.client_id });
    expect(recorder.calls).toEqual([
      { method: 'GET', path: '/v1/me' },
      { method: 'POST', path: '/v1/oauth/token' },
      { method: 'GET', path: '/v1/me' },
    ]);
    expect(await tokens.getToken()).not.toBe(revoked);
    expect(await issuedTokenCount(platform, admin, app.client_id)).toBe(2);
  });

  it('shares one new token among 20 concurrent calls that all met the revoked one', async () => {
    const app = await newApp('sdk-revoked-many');
    const { client, tokens, recorder } = clientFor(app);
    const revoked = await tokens.getToken();
    await new OAuthClient({
      baseUrl: platform.baseUrl,
      clientId: app.client_id,
      clientSecret: app.client_secret!,
    }).revoke(revoked);
    recorder.calls.length = 0;

    const responses = await Promise.all(Array.from({ length: 20 }, () => client.request('/v1/me')));

    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(recorder.count('POST', '/v1/oauth/token')).toBe(1);
    expect(await issuedTokenCount(platform, admin, app.client_id)).toBe(2);
  });

  it('gives a second 401 back to the caller as a ProblemError, after exactly one refresh and one retry', async () => {
    const app = await newApp('sdk-twice-refused');
    const revoker = new OAuthClient({
      baseUrl: platform.baseUrl,
      clientId: app.client_id,
      clientSecret: app.client_secret!,
    });
    const [first, second] = await Promise.all([revoker.clientCredentials(), revoker.clientCredentials()]);
    await revoker.revoke(first.access_token);
    await revoker.revoke(second.access_token);
    const refresh = jest.fn(async () => ({ access_token: second.access_token, refresh_token: 'rt-2' }));
    const recorder = recordingFetch();
    const client = new PlatformClient({
      baseUrl: platform.baseUrl,
      tokens: new UserTokenSource({ accessToken: first.access_token, refreshToken: 'rt-1', refresh }),
      fetch: recorder.fetch,
    });

    const error = await client.request('/v1/me').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ status: 401, problem: { status: 401, error: 'invalid_token' } });
    expect((error as ProblemError).wwwAuthenticate).toMatch(/error="invalid_token"/);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(recorder.count('GET', '/v1/me')).toBe(2);
  });

  it('asks for the configured scope only', async () => {
    const app = await newApp('sdk-scoped');
    const { client } = clientFor(app, { scope: 'files.read' });
    expect((await client.me()).scope).toBe('files.read');
  });

  it('sends client_secret_post when asked to', async () => {
    const app = await newApp('sdk-post');
    const recorder = recordingFetch();
    const tokens = new ServiceTokenSource({
      baseUrl: platform.baseUrl,
      clientId: app.client_id,
      clientSecret: app.client_secret!,
      authMethod: 'client_secret_post',
      fetch: recorder.fetch,
    });
    const client = new PlatformClient({ baseUrl: platform.baseUrl, tokens });
    expect((await client.me()).client_id).toBe(app.client_id);
    const [tokenRequest] = recorder.sent;
    expect(tokenRequest.authorization).toBeNull();
    expect(Object.fromEntries(new URLSearchParams(tokenRequest.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: app.client_id,
      client_secret: app.client_secret!,
    });
  });

  it('reports a wrong secret as OAuthProtocolError invalid_client 401 with the platform body, and caches nothing', async () => {
    const app = await newApp('sdk-wrong-secret');
    const recorder = recordingFetch();
    const tokens = new ServiceTokenSource({
      baseUrl: platform.baseUrl,
      clientId: app.client_id,
      clientSecret: 'not-the-secret',
      fetch: recorder.fetch,
    });
    const client = new PlatformClient({ baseUrl: platform.baseUrl, tokens, fetch: recorder.fetch });

    const error = await client.request('/v1/me').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OAuthProtocolError);
    expect(error).toMatchObject({ status: 401, error: 'invalid_client', body: { error: 'invalid_client' } });
    expect((error as OAuthProtocolError).wwwAuthenticate).toMatch(/^Basic/);
    await expect(client.request('/v1/me')).rejects.toBeInstanceOf(OAuthProtocolError);
    expect(recorder.count('POST', '/v1/oauth/token')).toBe(2);
    expect(recorder.count('GET', '/v1/me')).toBe(0);
  });

  it('reports an undeclared scope as OAuthProtocolError invalid_scope 400', async () => {
    const app = await newApp('sdk-undeclared', ['jobs.read']);
    const { tokens } = clientFor(app, { scope: 'secrets.read' });
    await expect(tokens.getToken()).rejects.toMatchObject({ status: 400, error: 'invalid_scope' });
  });
});
