import * as client from 'openid-client';
import { adminToken, discover, postForm, registerApp, type RegisteredApp } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { createScratchDatabase, describeOnPostgres, type ScratchDatabase } from '../../support/postgres';
import { authorize, clientFor, createSession, signIn, untilRejected } from '../../support/internal-consent';

// The races that row locks decide, on a real Postgres (mandatory under CI=true).
describeOnPostgres('user flow races', () => {
  let database: ScratchDatabase;
  let platform: TestPlatform;
  let dashboard: RegisteredApp;

  beforeAll(async () => {
    database = await createScratchDatabase();
    platform = await startPlatform({ databaseUrl: database.url });
    const admin = await adminToken(await discover(platform), platform);
    dashboard = await registerApp(platform, admin, {
      client_id: 'dashboard',
      app_type: 'spa',
      declared_scopes: ['jobs.read'],
      redirect_uris: ['https://dashboard.example.test/callback'],
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await database?.drop();
  });

  const token = (form: Record<string, string>) => postForm(`${platform.baseUrl}/v1/oauth/token`, form);

  it('lets exactly one of two concurrent refreshes with the same token through', async () => {
    const { tokens } = await signIn(platform, dashboard);
    const form = {
      grant_type: 'refresh_token',
      client_id: 'dashboard',
      refresh_token: tokens.refresh_token!,
    };
    const responses = await Promise.all([token(form), token(form)]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await responses.find((r) => r.status === 400)!.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('lets exactly one of two concurrent exchanges of a code through, then revokes what it issued', async () => {
    const config = await clientFor(platform, dashboard);
    const { session } = await createSession(platform);
    const { callback, verifier } = await authorize(platform, config, {
      session,
      redirectUri: dashboard.redirect_uris[0],
    });
    const form = {
      grant_type: 'authorization_code',
      client_id: 'dashboard',
      code: callback.searchParams.get('code')!,
      redirect_uri: dashboard.redirect_uris[0],
      code_verifier: verifier,
    };
    const responses = await Promise.all([token(form), token(form)]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
    const won = (await responses.find((r) => r.status === 200)!.json()) as client.TokenEndpointResponse;
    await untilRejected(platform, won.access_token);
    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: 'dashboard',
      refresh_token: won.refresh_token!,
    });
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
  });
});
