import {
  AdminClient,
  OAuthClient,
  OAuthProtocolError,
  PlatformClient,
  ProblemError,
  UserTokenSource,
  type RegisteredApplication,
  type UserTokens,
} from '@platform/sdk';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { signIn } from '../../support/internal-consent';
import { recordingFetch } from './helpers';

describe('UserTokenSource and PlatformClient (user-forwarding model)', () => {
  let platform: TestPlatform;
  let dashboard: RegisteredApplication;
  /** The admin app may revoke any token: the tests use it to make the platform refuse one. */
  let revoker: OAuthClient;

  beforeAll(async () => {
    platform = sharedPlatform();
    const admin = AdminClient.withCredentials({
      baseUrl: platform.baseUrl,
      clientId: platform.admin.clientId,
      clientSecret: platform.admin.clientSecret,
    });
    // A single-page app: no secret of its own, it refreshes with its client_id alone.
    dashboard = await admin.registerApp({
      client_id: 'sdk-user-dashboard',
      name: 'SDK dashboard',
      declared_scopes: ['jobs.read', 'files.read'],
      app_type: 'spa',
      redirect_uris: ['https://sdk-dashboard.example.test/callback'],
    });
    revoker = new OAuthClient({
      baseUrl: platform.baseUrl,
      clientId: platform.admin.clientId,
      clientSecret: platform.admin.clientSecret,
    });
  });

  /** The test user signs in to the dashboard (a new grant each time): its first tokens. */
  const signedInUser = async () => {
    const { user, tokens } = await signIn(platform, dashboard, { scope: 'jobs.read' });
    return { user, access_token: tokens.access_token, refresh_token: tokens.refresh_token! };
  };

  const clientFor = (tokens: UserTokens) => {
    const recorder = recordingFetch();
    const persisted: UserTokens[] = [];
    const source = new UserTokenSource({
      ...tokens,
      baseUrl: platform.baseUrl,
      clientId: 'sdk-user-dashboard',
      fetch: recorder.fetch,
      onTokens: (pair) => {
        persisted.push({ accessToken: pair.accessToken, refreshToken: pair.refreshToken });
      },
    });
    const client = new PlatformClient({ baseUrl: platform.baseUrl, tokens: source, fetch: recorder.fetch });
    return { client, source, recorder, persisted };
  };

  it('forwards the user token: calls run as the user, with the user tenant and roles', async () => {
    const user = await signedInUser();
    const { client, recorder } = clientFor({
      accessToken: user.access_token,
      refreshToken: user.refresh_token,
    });

    expect(await client.me()).toMatchObject({
      sub: user.user.id,
      client_id: 'sdk-user-dashboard',
      scope: 'jobs.read',
      tenant: user.user.tenant,
      roles: user.user.roles,
    });
    expect(recorder.count('POST', '/v1/oauth/token')).toBe(0);
  });

  it('on a 401 refreshes exactly once with client_id only, retries exactly once, and hands the rotated pair to onTokens', async () => {
    const user = await signedInUser();
    const { client, source, recorder, persisted } = clientFor({
      accessToken: user.access_token,
      refreshToken: user.refresh_token,
    });
    await revoker.revoke(user.access_token);

    const me = await client.me();

    expect(me).toMatchObject({ sub: user.user.id, tenant: user.user.tenant });
    expect(recorder.calls).toEqual([
      { method: 'GET', path: '/v1/me' },
      { method: 'POST', path: '/v1/oauth/token' },
      { method: 'GET', path: '/v1/me' },
    ]);
    const refresh = recorder.sent[1];
    expect(refresh.authorization).toBeNull();
    expect(Object.fromEntries(new URLSearchParams(refresh.body))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: user.refresh_token,
      client_id: 'sdk-user-dashboard',
    });
    const current = source.current;
    expect(current.accessToken).not.toBe(user.access_token);
    expect(current.refreshToken).not.toBe(user.refresh_token);
    expect(persisted).toEqual([current]);
  });

  it('refreshes with the rotated refresh token the next time', async () => {
    const user = await signedInUser();
    const { client, source, persisted } = clientFor({
      accessToken: user.access_token,
      refreshToken: user.refresh_token,
    });
    await revoker.revoke(user.access_token);
    await client.me();
    await revoker.revoke(source.current.accessToken);

    // A reused (old) refresh token would revoke the whole grant and fail with invalid_grant.
    expect((await client.me()).sub).toBe(user.user.id);
    expect(persisted).toHaveLength(2);
  });

  it('refreshes once for 50 concurrent calls that met the revoked token, and all 50 succeed', async () => {
    const user = await signedInUser();
    const { client, recorder } = clientFor({
      accessToken: user.access_token,
      refreshToken: user.refresh_token,
    });
    await revoker.revoke(user.access_token);

    const responses = await Promise.all(Array.from({ length: 50 }, () => client.request('/v1/me')));

    // Two refreshes with one refresh token would revoke the grant and fail some of the calls.
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(recorder.count('POST', '/v1/oauth/token')).toBe(1);
  });

  it('throws the refusal of a dead refresh token as OAuthProtocolError invalid_grant', async () => {
    const user = await signedInUser();
    await revoker.revoke(user.access_token);
    await revoker.revoke(user.refresh_token);
    const { client, recorder } = clientFor({
      accessToken: user.access_token,
      refreshToken: user.refresh_token,
    });

    const error = await client.me().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OAuthProtocolError);
    expect(error).toMatchObject({ status: 400, error: 'invalid_grant' });
    expect(recorder.count('GET', '/v1/me')).toBe(1);
  });

  it('without a refresh token, gives the 401 back at once as a ProblemError', async () => {
    const user = await signedInUser();
    await revoker.revoke(user.access_token);
    const { client, recorder } = clientFor({ accessToken: user.access_token });

    const error = await client.me().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ status: 401, problem: { error: 'invalid_token' } });
    expect(recorder.calls).toEqual([{ method: 'GET', path: '/v1/me' }]);
  });
});
