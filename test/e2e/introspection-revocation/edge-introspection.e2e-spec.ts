import * as oauth from 'oauth4webapi';
import {
  adminToken,
  clientCredentialsToken,
  discover,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { startBackendReplica, startPlatform, type TestPlatform } from '../../support/platform';

/**
 * Introspection answered at the backend (docs/performance.md), seen through oauth4webapi: the
 * same answers as the control plane's, and a revocation, a secret rotation or an app deletion made
 * through one backend reaches the other's answers within a second (at once at the one that made it).
 * Its own platform, not the shared one: any revocation there (another file's) voids every caller
 * the edge remembers, and these tests count which answers the edge gave itself. Its own replica of
 * the edge, whose counts it reads.
 */
describe('introspection answered at the backend', () => {
  let platform: TestPlatform;
  let replica: { baseUrl: string; metricsUrl: string; stop(): Promise<void> };
  let admin: string;
  let owner: RegisteredApp;

  beforeAll(async () => {
    platform = await startPlatform();
    replica = await startBackendReplica(platform);
    const as = await discover(platform);
    admin = await adminToken(as, platform);
    owner = await registerApp(platform, admin, { client_id: 'edge-owner', declared_scopes: ['jobs.read'] });
  });
  afterAll(async () => {
    await replica?.stop();
    await platform?.stop();
  });

  const gateway = (clientId: string) =>
    registerApp(platform, admin, { client_id: clientId, declared_scopes: ['tokens.introspect'] });
  const issue = async () =>
    (
      await clientCredentialsToken(await discover(platform), {
        clientId: owner.client_id,
        clientSecret: owner.client_secret!,
      })
    ).access_token;

  /** RFC 7662 through oauth4webapi at one backend: the claims, or the HTTP status it refused with. */
  async function introspectAt(
    baseUrl: string,
    app: RegisteredApp,
    token: string,
    secret = app.client_secret!,
  ): Promise<oauth.IntrospectionResponse | number> {
    const as: oauth.AuthorizationServer = {
      issuer: (await discover(platform)).issuer,
      introspection_endpoint: `${baseUrl}/v1/oauth/introspect`,
    };
    const client: oauth.Client = { client_id: app.client_id };
    const response = await oauth.introspectionRequest(as, client, oauth.ClientSecretBasic(secret), token, {
      [oauth.allowInsecureRequests]: true,
    });
    if (response.status !== 200) return response.status;
    return oauth.processIntrospectionResponse(as, client, response);
  }

  /** How long until `settled` holds for the replica's answers; fails past 1 s. */
  async function withinASecond(ask: () => Promise<unknown>, settled: (answer: unknown) => boolean) {
    const started = Date.now();
    for (;;) {
      const answer = await ask();
      if (settled(answer)) return Date.now() - started;
      if (Date.now() - started > 1000) throw new Error(`still ${JSON.stringify(answer)} after 1 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const answeredAtTheBackend = async () => {
    const text = await (await fetch(replica.metricsUrl)).text();
    return Number(/platform_introspections_total\{answered_by="backend"\} (\d+)/.exec(text)?.[1] ?? 0);
  };

  /** Introspects twice at each backend: the replica answers the second itself, remembering the caller. */
  async function rememberedAtBoth(resourceServer: RegisteredApp, token: string) {
    const before = await answeredAtTheBackend();
    for (const baseUrl of [platform.baseUrl, replica.baseUrl, platform.baseUrl, replica.baseUrl]) {
      expect(await introspectAt(baseUrl, resourceServer, token)).toMatchObject({ active: true });
    }
    expect(await answeredAtTheBackend()).toBe(before + 1);
  }

  it('answers a caller’s repeat introspections itself, exactly as the control plane did', async () => {
    const resourceServer = await gateway('edge-gateway');
    const stranger = await registerApp(platform, admin, { client_id: 'edge-stranger' });
    const token = await issue();
    const before = await answeredAtTheBackend();

    const relayed = await introspectAt(replica.baseUrl, resourceServer, token);
    const local = await introspectAt(replica.baseUrl, resourceServer, token);
    expect(relayed).toMatchObject({ active: true, client_id: 'edge-owner', token_type: 'Bearer' });
    expect(local).toEqual(relayed);
    // Another client's token, to one that sees its own only: inactive, relayed and local alike.
    expect(await introspectAt(replica.baseUrl, stranger, token)).toEqual({ active: false });
    expect(await introspectAt(replica.baseUrl, stranger, token)).toEqual({ active: false });
    expect(await answeredAtTheBackend()).toBe(before + 2);
    // A wrong secret is the control plane's to refuse, however often the right one was seen.
    expect(await introspectAt(replica.baseUrl, resourceServer, token, 'a-guess')).toBe(401);
  });

  it('answers a token revoked through the other backend as inactive within a second', async () => {
    const resourceServer = await gateway('edge-gateway-2');
    const token = await issue();
    await introspectAt(replica.baseUrl, resourceServer, token);
    expect(await introspectAt(replica.baseUrl, resourceServer, token)).toMatchObject({ active: true });

    const revoked = await fetch(`${platform.baseUrl}/v1/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: owner.client_id, client_secret: owner.client_secret! }),
    });
    expect(revoked.status).toBe(200);
    expect(await introspectAt(platform.baseUrl, resourceServer, token)).toEqual({ active: false });
    await withinASecond(
      () => introspectAt(replica.baseUrl, resourceServer, token),
      (answer) => (answer as oauth.IntrospectionResponse).active === false,
    );
  });

  it('refuses a rotated secret at the other backend within a second, at once at this one', async () => {
    const resourceServer = await gateway('edge-rotating');
    const token = await issue();
    await rememberedAtBoth(resourceServer, token);

    const rotation = await fetch(`${platform.baseUrl}/v1/oauth/apps/edge-rotating/rotate-secret`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(rotation.status).toBe(200);
    const { client_secret: fresh } = (await rotation.json()) as { client_secret: string };

    expect(await introspectAt(platform.baseUrl, resourceServer, token)).toBe(401);
    await withinASecond(
      () => introspectAt(replica.baseUrl, resourceServer, token),
      (answer) => answer === 401,
    );
    expect(await introspectAt(replica.baseUrl, resourceServer, token, fresh)).toMatchObject({ active: true });
  });

  it('refuses a deleted app at the other backend within a second, at once at this one', async () => {
    const resourceServer = await gateway('edge-deleted');
    const token = await issue();
    await rememberedAtBoth(resourceServer, token);

    const deletion = await fetch(`${platform.baseUrl}/v1/oauth/apps/edge-deleted`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(deletion.status).toBe(204);

    expect(await introspectAt(platform.baseUrl, resourceServer, token)).toBe(401);
    await withinASecond(
      () => introspectAt(replica.baseUrl, resourceServer, token),
      (answer) => answer === 401,
    );
  });
});
