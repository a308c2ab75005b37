import {
  AdminClient,
  OAuthClient,
  OAuthProtocolError,
  PlatformClient,
  ProblemError,
  ServiceTokenSource,
  type Application,
} from '@platform/sdk';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

describe('AdminClient and OAuthClient (registry, introspection, revocation)', () => {
  let platform: TestPlatform;
  let admin: AdminClient;

  beforeAll(async () => {
    platform = sharedPlatform();
    admin = AdminClient.withCredentials({
      baseUrl: platform.baseUrl,
      clientId: platform.admin.clientId,
      clientSecret: platform.admin.clientSecret,
    });
  });

  const service = (clientId: string, declared_scopes = ['jobs.read']) =>
    admin.registerApp({ client_id: clientId, name: clientId, declared_scopes, app_type: 'service' });

  const clientOf = (clientId: string, clientSecret: string) =>
    new PlatformClient({
      baseUrl: platform.baseUrl,
      tokens: new ServiceTokenSource({ baseUrl: platform.baseUrl, clientId, clientSecret }),
    });

  describe('registerApp', () => {
    it('registers a service app and returns its secret once, with created_at', async () => {
      const app = await service('sdk-reports', ['files.read']);
      expect(app).toMatchObject({
        client_id: 'sdk-reports',
        name: 'sdk-reports',
        declared_scopes: ['files.read'],
        app_type: 'service',
        client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      expect(new Date(app.created_at).toISOString()).toBe(app.created_at);
      expect((await clientOf(app.client_id, app.client_secret!).me()).client_id).toBe('sdk-reports');
    });

    it('registers a spa app with its redirect URIs and no secret', async () => {
      const app = await admin.registerApp({
        client_id: 'sdk-dashboard',
        name: 'Dashboard',
        declared_scopes: ['jobs.read'],
        app_type: 'spa',
        redirect_uris: ['https://dashboard.example.com/callback'],
      });
      expect(app.client_secret).toBeUndefined();
      expect(app.redirect_uris).toEqual(['https://dashboard.example.com/callback']);
    });

    it('throws a ProblemError 409 with the problem body for a duplicate client_id', async () => {
      await service('sdk-twice');
      const error = await service('sdk-twice').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProblemError);
      expect(error).toMatchObject({ status: 409, problem: { status: 409, title: expect.any(String) } });
      expect((error as ProblemError).headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });

    it('throws a ProblemError 400 for an undefined scope', async () => {
      await expect(service('sdk-rockets', ['rockets.launch'])).rejects.toMatchObject({
        name: 'ProblemError',
        status: 400,
      });
    });
  });

  describe('listApps and allApps', () => {
    it('pages with the Link header, and allApps walks every page', async () => {
      for (const id of ['sdk-page-a', 'sdk-page-b', 'sdk-page-c', 'sdk-page-d', 'sdk-page-e'])
        await service(id);

      const first = await admin.listApps({ limit: 2 });
      expect(first.apps).toHaveLength(2);
      expect(first.next).toEqual({ limit: 2, after: first.apps[1].client_id });
      const second = await admin.listApps(first.next);
      expect(second.apps.map((a) => a.client_id)).not.toContain(first.apps[0].client_id);
      for (const app of first.apps) expect(app).not.toHaveProperty('client_secret');

      const everyApp: Application[] = [];
      for await (const app of admin.allApps({ limit: 2 })) everyApp.push(app);
      const ids = everyApp.map((a) => a.client_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(
        expect.arrayContaining([
          'admin',
          'sdk-page-a',
          'sdk-page-b',
          'sdk-page-c',
          'sdk-page-d',
          'sdk-page-e',
        ]),
      );
      expect(ids).toEqual([...ids].sort());
      const unpaged = await admin.listApps({ limit: 1000 });
      expect(unpaged.next).toBeUndefined();
      // Other files register and delete apps on the shared platform meanwhile: this file's own
      // apps (and the admin) are what both listings must agree on.
      const own = (list: string[]) => list.filter((id) => id === 'admin' || id.startsWith('sdk-page-'));
      expect(own(ids)).toEqual(own(unpaged.apps.map((a) => a.client_id)));
    });

    it('throws a ProblemError 400 for a limit above 1000', async () => {
      await expect(admin.listApps({ limit: 5000 })).rejects.toMatchObject({
        name: 'ProblemError',
        status: 400,
      });
    });
  });

  describe('getApp', () => {
    it('returns the app without its secret', async () => {
      await service('sdk-get', ['jobs.read', 'files.read']);
      const app = await admin.getApp('sdk-get');
      expect(app).toMatchObject({ client_id: 'sdk-get', declared_scopes: ['jobs.read', 'files.read'] });
      expect(app).not.toHaveProperty('client_secret');
    });

    it('throws a ProblemError 404 for an unknown app', async () => {
      await expect(admin.getApp('sdk-ghost')).rejects.toMatchObject({ name: 'ProblemError', status: 404 });
    });
  });

  describe('updateApp', () => {
    it('makes an app a resource and lets another exchange tokens for it', async () => {
      await service('sdk-exchange-ledger', ['jobs.read']);
      await service('sdk-exchange-orders', ['jobs.read']);
      const ledger = await admin.updateApp('sdk-exchange-ledger', {
        resource_uri: 'https://sdk-exchange-ledger.example',
      });
      expect(ledger).toMatchObject({ resource_uri: 'https://sdk-exchange-ledger.example' });
      const orders = await admin.updateApp('sdk-exchange-orders', {
        token_exchange_audiences: ['https://sdk-exchange-ledger.example'],
      });
      expect(await admin.getApp('sdk-exchange-orders')).toEqual(orders);
      expect(orders).toMatchObject({
        token_exchange_audiences: ['https://sdk-exchange-ledger.example'],
        impersonation_allowed: false,
      });
    });

    it('throws a ProblemError 409 for a resource URI another app is', async () => {
      await service('sdk-exchange-taken', ['jobs.read']);
      await service('sdk-exchange-twin', ['jobs.read']);
      await admin.updateApp('sdk-exchange-taken', { resource_uri: 'https://sdk-exchange-taken.example' });
      await expect(
        admin.updateApp('sdk-exchange-twin', { resource_uri: 'https://sdk-exchange-taken.example' }),
      ).rejects.toMatchObject({ name: 'ProblemError', status: 409 });
    });
  });

  describe('rotateSecret', () => {
    it('returns a new secret with rotated_at, and the old secret fails at once with invalid_client', async () => {
      const app = await service('sdk-rotating');
      expect((await clientOf(app.client_id, app.client_secret!).me()).client_id).toBe('sdk-rotating');

      const rotated = await admin.rotateSecret('sdk-rotating');
      expect(rotated).toMatchObject({ client_id: 'sdk-rotating', client_secret: expect.any(String) });
      expect(new Date(rotated.rotated_at).toISOString()).toBe(rotated.rotated_at);

      const error = await clientOf(app.client_id, app.client_secret!)
        .me()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OAuthProtocolError);
      expect(error).toMatchObject({ status: 401, error: 'invalid_client' });
      expect((await clientOf(app.client_id, rotated.client_secret).me()).client_id).toBe('sdk-rotating');
    });
  });

  describe('deleteApp', () => {
    it('deletes the app: its token stops working and getApp answers 404', async () => {
      const app = await service('sdk-doomed');
      const client = clientOf(app.client_id, app.client_secret!);
      await client.me();

      await admin.deleteApp('sdk-doomed');

      await expect(admin.getApp('sdk-doomed')).rejects.toMatchObject({ status: 404 });
      // The cached token is refused, and the renewal finds the app gone.
      await expect(client.me()).rejects.toMatchObject({
        name: 'OAuthProtocolError',
        error: 'invalid_client',
      });
    });

    it('throws a ProblemError 404 for an unknown app', async () => {
      await expect(admin.deleteApp('sdk-ghost')).rejects.toMatchObject({ name: 'ProblemError', status: 404 });
    });
  });

  describe('defineScope and listScopes', () => {
    it('defines a custom scope that an app may then declare and be granted', async () => {
      const scope = await admin.defineScope('sdkreports.export', 'Export reports');
      expect(scope).toMatchObject({ name: 'sdkreports.export', description: 'Export reports' });
      expect((await admin.listScopes()).map((s) => s.name)).toEqual(
        expect.arrayContaining(['jobs.read', 'sdkreports.export']),
      );
      const app = await service('sdk-exporter', ['sdkreports.export']);
      expect((await clientOf(app.client_id, app.client_secret!).me()).scope).toBe('sdkreports.export');
    });

    it('throws a ProblemError 409 for a scope defined twice', async () => {
      await admin.defineScope('sdkonce.read', 'Once');
      await expect(admin.defineScope('sdkonce.read', 'Twice')).rejects.toMatchObject({
        name: 'ProblemError',
        status: 409,
      });
    });
  });

  describe('authorization', () => {
    it('throws a ProblemError 403 insufficient_scope for a token without admin.*', async () => {
      const app = await service('sdk-not-admin');
      const notAdmin = new AdminClient(clientOf(app.client_id, app.client_secret!));
      const error = await notAdmin.listApps().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProblemError);
      expect(error).toMatchObject({ status: 403, problem: { error: 'insufficient_scope' } });
    });
  });

  describe('OAuthClient introspect and revoke', () => {
    it('introspects its own active token, revokes it, then sees exactly {active: false}', async () => {
      const app = await service('sdk-introspector');
      const oauth = new OAuthClient({
        baseUrl: platform.baseUrl,
        clientId: app.client_id,
        clientSecret: app.client_secret!,
      });
      const { access_token } = await oauth.clientCredentials();

      expect(await oauth.introspect(access_token)).toMatchObject({
        active: true,
        client_id: 'sdk-introspector',
        sub: 'sdk-introspector',
        scope: 'jobs.read',
        iss: platform.baseUrl,
      });
      await oauth.revoke(access_token);
      expect(await oauth.introspect(access_token)).toEqual({ active: false });
      await expect(oauth.revoke(access_token)).resolves.toBeUndefined();
    });

    it('throws OAuthProtocolError invalid_client 401 for a wrong secret', async () => {
      await service('sdk-wrong');
      const oauth = new OAuthClient({
        baseUrl: platform.baseUrl,
        clientId: 'sdk-wrong',
        clientSecret: 'nope',
      });
      await expect(oauth.introspect('x')).rejects.toMatchObject({
        name: 'OAuthProtocolError',
        status: 401,
        error: 'invalid_client',
      });
      await expect(oauth.revoke('x')).rejects.toMatchObject({ status: 401, error: 'invalid_client' });
    });
  });
});
