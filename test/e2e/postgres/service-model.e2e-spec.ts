import { randomBytes } from 'node:crypto';
import type * as oauth from 'oauth4webapi';
import {
  adminToken,
  basic,
  clientCredentialsToken,
  discover,
  postForm,
  registerApp,
} from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { createScratchDatabase, describeOnPostgres, type ScratchDatabase } from '../../support/postgres';

// The same service-model journey as on SQLite, on a real Postgres (mandatory under CI=true).
/** One key-encryption key across the restart, as a deployment keeps it (the signing key is sealed under it). */
const SECRETS_KEK = randomBytes(32).toString('base64');

describeOnPostgres('service model end to end', () => {
  let database: ScratchDatabase;
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;

  beforeAll(async () => {
    database = await createScratchDatabase();
    platform = await startPlatform({ databaseUrl: database.url, env: { SECRETS_KEK } });
    as = await discover(platform);
  });
  afterAll(async () => {
    await platform?.stop();
    await database?.drop();
  });

  it('registers, issues, introspects, revokes, rotates and deletes', async () => {
    const admin = await adminToken(as, platform);
    const app = await registerApp(platform, admin, { client_id: 'pg-worker', declared_scopes: ['jobs.*'] });
    const credentials = { clientId: app.client_id, clientSecret: app.client_secret! };

    const token = (await clientCredentialsToken(as, credentials, { method: 'post', scope: 'jobs.read' }))
      .access_token;
    const introspected = await postForm(
      `${platform.baseUrl}/v1/oauth/introspect`,
      { token },
      { authorization: basic(credentials.clientId, credentials.clientSecret) },
    );
    expect(await introspected.json()).toMatchObject({
      active: true,
      scope: 'jobs.read',
      client_id: 'pg-worker',
    });

    const revoked = await postForm(
      `${platform.baseUrl}/v1/oauth/revoke`,
      { token },
      { authorization: basic(credentials.clientId, credentials.clientSecret) },
    );
    expect(revoked.status).toBe(200);
    expect(
      (await fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(401);

    const rotation = await fetch(`${platform.baseUrl}/v1/oauth/apps/pg-worker/rotate-secret`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(rotation.status).toBe(200);
    const old = await postForm(
      `${platform.baseUrl}/v1/oauth/token`,
      { grant_type: 'client_credentials' },
      { authorization: basic(credentials.clientId, credentials.clientSecret) },
    );
    expect(old.status).toBe(401);

    const { client_secret: fresh } = (await rotation.json()) as { client_secret: string };
    const live = (await clientCredentialsToken(as, { clientId: 'pg-worker', clientSecret: fresh }))
      .access_token;
    const deleted = await fetch(`${platform.baseUrl}/v1/oauth/apps/pg-worker`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(deleted.status).toBe(204);
    expect(
      (await fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${live}` } })).status,
    ).toBe(401);
  });

  it('keeps its signing key and admin app across a restart', async () => {
    const before = await (await fetch(`${platform.baseUrl}/v1/jwks`)).json();
    await platform.stop();
    platform = await startPlatform({ databaseUrl: database.url, env: { SECRETS_KEK } });
    const after = await (await fetch(`${platform.baseUrl}/v1/jwks`)).json();
    expect(after).toEqual(before);
  });
});
