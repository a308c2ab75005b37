import * as client from 'openid-client';
import type * as oauth from 'oauth4webapi';
import { createSession, introspectAsAdmin, signIn, type TestIdentity } from '../../support/internal-consent';
import { adminToken, discover, registerApp, type RegisteredApp } from '../../support/oauth';
import { startBackendReplica, startPlatform, type TestPlatform } from '../../support/platform';
import { createScratchDatabase, postgresSuiteEnabled, type ScratchDatabase } from '../../support/postgres';
import { patchOp, provisioningToken, SCIM, scimClient, type ScimCall } from '../../support/scim';

/**
 * Provisioning is real: the user SCIM creates is the user who then logs in, and deprovisioning
 * (`active: false`, or DELETE) ends their sessions, refresh tokens and access tokens at every
 * backend within a second, audited. On SQLite and Postgres.
 */
const databases: Array<{ name: string; scratch?: () => Promise<ScratchDatabase> }> = [
  { name: 'SQLite' },
  ...(postgresSuiteEnabled('the SCIM deprovisioning suite on Postgres')
    ? [{ name: 'Postgres', scratch: createScratchDatabase }]
    : []),
];

const TENANT = 'provisioned';
const IDP = 'https://idp.example.test';

/** The identity provider's view of a person: its `sub`, its email, the tenant claim. */
const person = (subject: string, email: string): TestIdentity => ({
  issuer: IDP,
  subject,
  claims: { email, name: subject, tenant: TENANT, roles: ['user'] },
});

describe.each(databases)('SCIM deprovisioning ($name)', ({ scratch }) => {
  let platform: TestPlatform;
  let drop: (() => Promise<void>) | undefined;
  let replica: { baseUrl: string; stop(): Promise<void> };
  let as: oauth.AuthorizationServer;
  let admin: string;
  let app: RegisteredApp;
  let scim: ScimCall;

  beforeAll(async () => {
    const database = scratch ? await scratch() : undefined;
    drop = database?.drop;
    platform = await startPlatform(database ? { databaseUrl: database.url } : {});
    replica = await startBackendReplica(platform);
    as = await discover(platform);
    admin = await adminToken(as, platform);
    app = await registerApp(platform, admin, {
      client_id: 'staff-portal',
      app_type: 'web',
      declared_scopes: ['users.read'],
      redirect_uris: ['http://127.0.0.1:9/callback'],
    });
    scim = scimClient(platform.baseUrl, await provisioningToken(platform, as, admin, 'okta-staff', TENANT));
  });
  afterAll(async () => {
    await replica?.stop();
    await platform?.stop();
    await drop?.();
  });

  /** `GET /v1/me` at one backend. */
  const me = async (baseUrl: string, token: string) =>
    (await fetch(`${baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status;

  /** How long until both backends refuse the token; fails past `limitMs`. */
  async function refusedEverywhereWithin(token: string, limitMs: number): Promise<number> {
    const started = Date.now();
    for (const baseUrl of [platform.baseUrl, replica.baseUrl]) {
      while ((await me(baseUrl, token)) !== 401) {
        if (Date.now() - started > limitMs)
          throw new Error(`${baseUrl} still accepted the token after ${limitMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    return Date.now() - started;
  }

  async function audited(action: string, target: string): Promise<number> {
    const query = new URLSearchParams({ action, target });
    const response = await fetch(`${platform.baseUrl}/api/v1/audit/records?${query}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    return ((await response.json()) as { records: unknown[] }).records.length;
  }

  it('links the first login to the provisioned user: by externalId = sub, else by userName = email', async () => {
    const byExternalId = await scim('POST', '/Users', {
      schemas: [SCIM.user],
      userName: 'grace@corp.example',
      externalId: '00u-grace',
    });
    const byUserName = await scim('POST', '/Users', { schemas: [SCIM.user], userName: 'Alan@Corp.example' });

    const grace = await createSession(platform, person('00u-grace', 'grace.hopper@corp.example'));
    const alan = await createSession(platform, person('00u-alan', 'alan@corp.example'));
    const stranger = await createSession(platform, person('00u-stranger', 'stranger@corp.example'));

    expect(grace.user.id).toBe(byExternalId.body.id);
    expect(alan.user.id).toBe(byUserName.body.id);
    expect([byExternalId.body.id, byUserName.body.id]).not.toContain(stranger.user.id);
    // One user: the SCIM view keeps its userName, and a second login is the same user again.
    expect((await scim('GET', `/Users/${alan.user.id}`)).body.userName).toBe('Alan@Corp.example');
    expect((await createSession(platform, person('00u-alan', 'alan@corp.example'))).user.id).toBe(
      alan.user.id,
    );
    expect(await audited('user.linked', alan.user.id)).toBe(1);
  });

  it('active: false kills the user’s access tokens at both backends within 1 s, and its refresh token and sessions', async () => {
    const provisioned = await scim('POST', '/Users', {
      schemas: [SCIM.user],
      userName: 'leaver@corp.example',
      externalId: '00u-leaver',
    });
    const leaver = person('00u-leaver', 'leaver@corp.example');
    const first = await signIn(platform, app, { identity: leaver });
    const second = await signIn(platform, app, { identity: leaver });
    expect(first.user.id).toBe(provisioned.body.id);
    const colleague = await signIn(platform, app, { identity: person('00u-stays', 'stays@corp.example') });
    for (const baseUrl of [platform.baseUrl, replica.baseUrl]) {
      expect(await me(baseUrl, first.tokens.access_token)).toBe(200);
      expect(await me(baseUrl, second.tokens.access_token)).toBe(200);
    }

    const deactivated = await scim(
      'PATCH',
      `/Users/${provisioned.body.id}`,
      patchOp({ op: 'replace', path: 'active', value: false }),
    );
    expect(deactivated.status).toBe(200);

    expect(await refusedEverywhereWithin(first.tokens.access_token, 1000)).toBeLessThan(1000);
    expect(await refusedEverywhereWithin(second.tokens.access_token, 1000)).toBeLessThan(1000);
    expect(await introspectAsAdmin(platform, first.tokens.access_token)).toEqual({ active: false });
    const refreshed = await client
      .refreshTokenGrant(first.config, first.tokens.refresh_token!)
      .catch((e: unknown) => e);
    expect(refreshed).toMatchObject({ status: 400, error: 'invalid_grant' });
    // No new login either, while deactivated.
    await expect(createSession(platform, leaver)).rejects.toThrow(/^session: 403/);
    // Another user is untouched.
    expect(await me(replica.baseUrl, colleague.tokens.access_token)).toBe(200);
    expect(await audited('user.deprovisioned', provisioned.body.id)).toBe(1);

    // Reactivated: a new login gets tokens that work; the old ones stay dead.
    await scim(
      'PATCH',
      `/Users/${provisioned.body.id}`,
      patchOp({ op: 'replace', path: 'active', value: true }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1100)); // tokens carry iat in seconds
    const again = await signIn(platform, app, { identity: leaver });
    expect(await me(replica.baseUrl, again.tokens.access_token)).toBe(200);
    expect(await me(replica.baseUrl, first.tokens.access_token)).toBe(401);
  });

  it('DELETE kills the user’s tokens at both backends within 1 s and removes the user', async () => {
    const provisioned = await scim('POST', '/Users', { schemas: [SCIM.user], userName: 'gone@corp.example' });
    const { user, tokens } = await signIn(platform, app, {
      identity: person('00u-gone', 'gone@corp.example'),
    });
    expect(user.id).toBe(provisioned.body.id);

    expect((await scim('DELETE', `/Users/${user.id}`)).status).toBe(204);

    expect(await refusedEverywhereWithin(tokens.access_token, 1000)).toBeLessThan(1000);
    expect((await scim('GET', `/Users/${user.id}`)).status).toBe(404);
    expect(await audited('user.deleted', user.id)).toBe(1);
  });

  it('keeps every acknowledged write when the control plane is killed (kill -9) right after', async () => {
    const provisioned = await scim('POST', '/Users', {
      schemas: [SCIM.user],
      userName: 'crash@corp.example',
    });
    const { tokens } = await signIn(platform, app, { identity: person('00u-crash', 'crash@corp.example') });
    const deactivated = await scim(
      'PATCH',
      `/Users/${provisioned.body.id}`,
      patchOp({ op: 'replace', path: 'active', value: false }),
    );
    expect(deactivated.status).toBe(200);

    await platform.killProcess('control-plane');
    await platform.restartProcess('control-plane');

    const after = await scim('GET', `/Users/${provisioned.body.id}`);
    expect(after.body).toMatchObject({ active: false, meta: { version: 'W/"2"' } });
    // The push may have died with the process: the sidecars follow again within their reconnect
    // cap (1 s, apps/sidecar/src/control-plane/follow-stream.ts), then it takes the usual second.
    expect(await refusedEverywhereWithin(tokens.access_token, 2000)).toBeLessThan(2000);
    expect(await audited('user.deprovisioned', provisioned.body.id)).toBe(1);
  });
});
