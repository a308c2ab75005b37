import { AuditedTransactor, AuditTrail } from '../audit/audit-trail';
import { argon2idHasher } from '../clients/secret-hasher';
import { OAuthError } from '../errors';
import {
  ADMIN_CLIENT_ID,
  approvedCode,
  aRefreshToken,
  codeExchange,
  createTestEngine,
  expectDomainError,
  expectOAuthError,
  TEST_START,
  type TestEngine,
} from '../testing/in-memory-stores';
import { ApplicationRegistry, type RegistrationInput, serviceAccountClientId } from './application-registry';

const HOUR_MS = 3600 * 1000;

const serviceApp = (overrides: Partial<RegistrationInput> = {}): RegistrationInput => ({
  clientId: 'reports-worker',
  name: 'Reports worker',
  appType: 'service',
  declaredScopes: ['jobs.read'],
  ...overrides,
});

const webApp = (overrides: Partial<RegistrationInput> = {}): RegistrationInput =>
  serviceApp({
    clientId: 'web-portal',
    name: 'Web portal',
    appType: 'web',
    redirectUris: ['https://portal.example.com/callback'],
    ...overrides,
  });

/** Does the client authenticate with this secret, through the production authenticator? */
async function secretWorks(engine: TestEngine, clientId: string, secret: string): Promise<boolean> {
  try {
    await engine.authenticator.authenticateConfidential({
      clientId,
      clientSecret: secret,
      method: 'client_secret_post',
    });
    return true;
  } catch (error) {
    if (error instanceof OAuthError && error.code === 'invalid_client') return false;
    throw error;
  }
}

describe(ApplicationRegistry.name, () => {
  describe('register', () => {
    it('registers a service app and shows its secret once', async () => {
      const engine = await createTestEngine();
      const { app, clientSecret } = await engine.registry.register(serviceApp());
      expect(app).toEqual({
        clientId: 'reports-worker',
        name: 'Reports worker',
        appType: 'service',
        declaredScopes: ['jobs.read'],
        redirectUris: [],
        secretHash: expect.any(String),
        createdAt: TEST_START,
        rotatedAt: null,
        tenant: null,
        resourceUri: null,
        exchangeAudiences: [],
        mayImpersonate: false,
      });
      expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await expect(engine.stores.applications.findApplication('reports-worker')).resolves.toEqual(app);
    });

    it('stores an argon2id hash of the secret, never the secret', async () => {
      const engine = await createTestEngine();
      const { clientSecret } = await engine.registry.register(serviceApp());
      const stored = (await engine.stores.applications.findApplication('reports-worker'))!;
      expect(stored.secretHash).toMatch(/^\$argon2id\$/);
      expect(stored.secretHash).not.toContain(clientSecret);
      await expect(argon2idHasher.verify(stored.secretHash!, clientSecret!)).resolves.toBe(true);
    });

    it('gives a registered service app tokens for its secret', async () => {
      const engine = await createTestEngine();
      const { clientSecret } = await engine.registry.register(serviceApp());
      await expect(
        engine.tokenEndpoint.handle(
          { grant_type: 'client_credentials', client_id: 'reports-worker', client_secret: clientSecret! },
          undefined,
        ),
      ).resolves.toMatchObject({ scope: 'jobs.read' });
    });

    it.each(['web', 'cli'])('gives a %s app a secret', async (appType) => {
      const engine = await createTestEngine();
      const { app, clientSecret } = await engine.registry.register(webApp({ appType }));
      expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(app.secretHash).toMatch(/^\$argon2id\$/);
    });

    it('gives a spa no secret', async () => {
      const engine = await createTestEngine();
      const { app, clientSecret } = await engine.registry.register(webApp({ appType: 'spa' }));
      expect(clientSecret).toBeUndefined();
      expect(app.secretHash).toBeNull();
    });

    it('records an app.registered event', async () => {
      const engine = await createTestEngine();
      await engine.registry.register(serviceApp());
      expect(engine.stores.tokenEvents.all()).toEqual([
        {
          id: 1,
          type: 'app.registered',
          clientId: 'reports-worker',
          subject: null,
          jti: null,
          grantId: null,
          occurredAt: TEST_START,
        },
      ]);
    });

    it('refuses an unknown app_type as validation_failed', async () => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.register(serviceApp({ appType: 'mobile' })),
        'validation_failed',
      );
    });

    it.each(['ab', 'a'.repeat(65), 'has space', 'slash/id', 'colon:id', ''])(
      'refuses the client_id "%s" as validation_failed',
      async (clientId) => {
        const engine = await createTestEngine();
        await expectDomainError(engine.registry.register(serviceApp({ clientId })), 'validation_failed');
      },
    );

    it('refuses a blank or overlong name and trims the one it keeps', async () => {
      const engine = await createTestEngine();
      await expectDomainError(engine.registry.register(serviceApp({ name: '   ' })), 'validation_failed');
      await expectDomainError(
        engine.registry.register(serviceApp({ name: 'n'.repeat(201) })),
        'validation_failed',
      );
      await expect(engine.registry.register(serviceApp({ name: '  Reports  ' }))).resolves.toMatchObject({
        app: { name: 'Reports' },
      });
    });

    it('refuses empty or missing declared_scopes as validation_failed', async () => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.register(serviceApp({ declaredScopes: [] })),
        'validation_failed',
      );
      await expectDomainError(
        engine.registry.register(serviceApp({ declaredScopes: undefined as unknown as string[] })),
        'validation_failed',
      );
    });

    it('refuses a scope that is neither standard nor defined as validation_failed', async () => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.register(serviceApp({ declaredScopes: ['jobs.read', 'reports.read'] })),
        'validation_failed',
      );
      await expect(engine.stores.applications.findApplication('reports-worker')).resolves.toBeNull();
    });

    it('accepts a custom scope once it is defined through the scope registry', async () => {
      const engine = await createTestEngine();
      await engine.scopeRegistry.define('reports.read', 'Read reports');
      await expect(
        engine.registry.register(serviceApp({ declaredScopes: ['reports.read'] })),
      ).resolves.toMatchObject({
        app: { declaredScopes: ['reports.read'] },
      });
    });

    it('accepts a wildcard over a defined resource, and admin.*', async () => {
      const engine = await createTestEngine();
      await expect(
        engine.registry.register(serviceApp({ declaredScopes: ['jobs.*', 'admin.*'] })),
      ).resolves.toMatchObject({
        app: { declaredScopes: ['jobs.*', 'admin.*'] },
      });
    });

    it.each([['web'], ['spa'], ['cli']] as const)(
      'refuses a %s app the service-only scopes admin.*, jobs.work and tokens.introspect',
      async (appType) => {
        const engine = await createTestEngine();
        for (const scope of ['admin.*', 'jobs.work', 'tokens.introspect']) {
          await expectDomainError(
            engine.registry.register(
              webApp({ appType, clientId: `${appType}-app`, declaredScopes: ['jobs.read', scope] }),
            ),
            'validation_failed',
          );
        }
        await expect(engine.stores.applications.findApplication(`${appType}-app`)).resolves.toBeNull();
      },
    );

    it('lets a user-facing app declare jobs.*, which never grants its users jobs.work', async () => {
      const engine = await createTestEngine();
      await expect(engine.registry.register(webApp({ declaredScopes: ['jobs.*'] }))).resolves.toMatchObject({
        app: { declaredScopes: ['jobs.*'] },
      });
    });

    it('refuses admin.* to an app bound to a tenant', async () => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.register(serviceApp({ tenant: 'acme', declaredScopes: ['admin.*'] })),
        'validation_failed',
      );
    });

    it('keeps each declared scope once', async () => {
      const engine = await createTestEngine();
      const { app } = await engine.registry.register(
        serviceApp({ declaredScopes: ['jobs.read', 'files.read', 'jobs.read'] }),
      );
      expect(app.declaredScopes).toEqual(['jobs.read', 'files.read']);
    });

    // A declared scope is put verbatim into the space-separated `scope` of every token, so it
    // must itself be a single resource.action name, even where admin.* "covers" the string.
    it.each(['admin.ops jobs.read', 'admin.Ops', 'admin.ops\n'])(
      'refuses the declared scope %j that is not a resource.action name',
      async (scope) => {
        const engine = await createTestEngine();
        await expectDomainError(
          engine.registry.register(serviceApp({ declaredScopes: [scope] })),
          'validation_failed',
        );
      },
    );

    it.each(['web', 'spa', 'cli'])('requires redirect_uris for a %s app', async (appType) => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.register(webApp({ appType, redirectUris: undefined })),
        'validation_failed',
      );
      await expectDomainError(
        engine.registry.register(webApp({ appType, redirectUris: [] })),
        'validation_failed',
      );
    });

    it('refuses redirect_uris for a service app', async () => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.register(serviceApp({ redirectUris: ['https://worker.example.com/callback'] })),
        'validation_failed',
      );
    });

    it('allows plain http only on loopback', async () => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.register(webApp({ redirectUris: ['http://portal.example.com/callback'] })),
        'validation_failed',
      );
      await expect(
        engine.registry.register(
          webApp({
            appType: 'cli',
            redirectUris: ['http://127.0.0.1:53123/callback', 'http://[::1]/cb'],
          }),
        ),
      ).resolves.toMatchObject({
        app: { redirectUris: ['http://127.0.0.1:53123/callback', 'http://[::1]/cb'] },
      });
    });

    it.each<[string, string, string]>([
      ['a wildcard', 'web', 'https://*.example.test/cb'],
      ['userinfo', 'web', 'https://user:pw@evil.example.test/cb'],
      ['a non-canonical IP literal', 'cli', 'http://127.1/cb'],
      ['localhost', 'cli', 'http://localhost/cb'],
      ['a private-use scheme on a web app', 'web', 'com.example.portal:/cb'],
    ])('refuses %s, naming the URI by its place and the rule it breaks', async (_, appType, uri) => {
      const engine = await createTestEngine();
      const refused = await engine.registry
        .register(webApp({ appType, redirectUris: ['https://portal.example.com/callback', uri] }))
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({
        code: 'validation_failed',
        message: expect.stringMatching(/^invalid redirect_uris: redirect_uris\[1\] /),
      });
      expect((refused as Error).message).not.toContain('pw');
    });

    it('refuses a redirect URI with a fragment', async () => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.register(webApp({ redirectUris: ['https://portal.example.com/callback#x'] })),
        'validation_failed',
      );
    });

    it('refuses the whole registration when any one redirect URI is bad', async () => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.register(
          webApp({ redirectUris: ['https://portal.example.com/callback', 'javascript:alert(1)'] }),
        ),
        'validation_failed',
      );
    });

    it('accepts a private-use reverse-domain scheme for a native app', async () => {
      const engine = await createTestEngine();
      await expect(
        engine.registry.register(
          webApp({ appType: 'cli', redirectUris: ['com.example.cli:/oauth2redirect'] }),
        ),
      ).resolves.toMatchObject({ app: { redirectUris: ['com.example.cli:/oauth2redirect'] } });
    });

    it('keeps each redirect URI once', async () => {
      const engine = await createTestEngine();
      const uri = 'https://portal.example.com/callback';
      await expect(engine.registry.register(webApp({ redirectUris: [uri, uri] }))).resolves.toMatchObject({
        app: { redirectUris: [uri] },
      });
    });

    it('refuses a client_id that is taken as conflict, leaving the first app as it was', async () => {
      const engine = await createTestEngine();
      const first = await engine.registry.register(serviceApp());
      await expectDomainError(engine.registry.register(serviceApp({ name: 'Impostor' })), 'conflict');
      await expect(engine.stores.applications.findApplication('reports-worker')).resolves.toEqual(first.app);
      expect(engine.stores.tokenEvents.all().map((e) => e.type)).toEqual(['app.registered']);
    });
  });

  describe('register: resource and exchange rights', () => {
    it('keeps the resource URI, the exchange audiences and the impersonation right', async () => {
      const engine = await createTestEngine();
      const { app } = await engine.registry.register(
        serviceApp({
          resourceUri: 'https://api.reports.example/v1',
          exchangeAudiences: ['https://api.ledger.example', 'urn:platform:billing'],
          mayImpersonate: true,
        }),
      );
      expect(app).toMatchObject({
        resourceUri: 'https://api.reports.example/v1',
        exchangeAudiences: ['https://api.ledger.example', 'urn:platform:billing'],
        mayImpersonate: true,
      });
      await expect(
        engine.stores.applications.findApplicationByResource('https://api.reports.example/v1'),
      ).resolves.toEqual(app);
    });

    it.each([
      ['plain http', 'http://api.reports.example'],
      ['a relative reference', '/api/reports'],
      ['a fragment', 'https://api.reports.example/#v1'],
      ['a fragment in a URN', 'urn:platform:reports#v1'],
      ['no host', 'https:///reports'],
      ['https: without //', 'https:api.reports.example'],
      ['userinfo', 'https://user:pw@api.reports.example'],
      ['a space', 'https://api.reports.example/a b'],
      ['a backslash', 'https://api.reports.example\\v1'],
      ['a URN without a name', 'urn:platform'],
      ['another scheme', 'spiffe://reports'],
      ['an empty string', ''],
      ['more than 512 characters', `https://api.reports.example/${'a'.repeat(485)}`],
    ])('refuses a resource URI with %s as validation_failed', async (_, uri) => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.register(serviceApp({ resourceUri: uri })),
        'validation_failed',
      );
      await expectDomainError(
        engine.registry.register(serviceApp({ exchangeAudiences: [uri] })),
        'validation_failed',
      );
      await expect(engine.stores.applications.findApplication('reports-worker')).resolves.toBeNull();
    });

    it('accepts a resource URI of exactly 512 characters', async () => {
      const engine = await createTestEngine();
      const uri = `https://api.reports.example/${'a'.repeat(484)}`;
      expect(uri).toHaveLength(512);
      await expect(engine.registry.register(serviceApp({ resourceUri: uri }))).resolves.toMatchObject({
        app: { resourceUri: uri },
      });
    });

    it('refuses more than 20 exchange audiences, or one named twice', async () => {
      const engine = await createTestEngine();
      const audiences = Array.from({ length: 21 }, (_, i) => `urn:platform:api-${i}`);
      await expectDomainError(
        engine.registry.register(serviceApp({ exchangeAudiences: audiences })),
        'validation_failed',
      );
      await expectDomainError(
        engine.registry.register(serviceApp({ exchangeAudiences: ['urn:platform:a', 'urn:platform:a'] })),
        'validation_failed',
      );
      await expect(
        engine.registry.register(serviceApp({ exchangeAudiences: audiences.slice(0, 20) })),
      ).resolves.toMatchObject({ app: { exchangeAudiences: audiences.slice(0, 20) } });
    });

    it('refuses a resource URI another app is as conflict, recording nothing', async () => {
      const engine = await createTestEngine();
      await engine.registry.register(serviceApp({ resourceUri: 'urn:platform:reports' }));
      await expectDomainError(
        engine.registry.register(serviceApp({ clientId: 'ledger', resourceUri: 'urn:platform:reports' })),
        'conflict',
      );
      await expect(engine.stores.applications.findApplication('ledger')).resolves.toBeNull();
      expect(engine.stores.tokenEvents.all().map((e) => e.type)).toEqual(['app.registered']);
    });
  });

  describe('updateExchange', () => {
    it('changes the fields named and no others, answering the app as stored', async () => {
      const engine = await createTestEngine();
      const { app } = await engine.registry.register(
        serviceApp({ resourceUri: 'urn:platform:reports', mayImpersonate: true }),
      );

      const updated = await engine.registry.updateExchange('reports-worker', {
        exchangeAudiences: ['https://api.ledger.example'],
      });

      expect(updated).toEqual({ ...app, exchangeAudiences: ['https://api.ledger.example'] });
      await expect(engine.registry.get('reports-worker')).resolves.toEqual(updated);
    });

    it('clears the resource URI with null, freeing it for another app', async () => {
      const engine = await createTestEngine();
      await engine.registry.register(serviceApp({ resourceUri: 'urn:platform:reports' }));
      await engine.seed({ clientId: 'ledger' });

      await expect(
        engine.registry.updateExchange('reports-worker', { resourceUri: null }),
      ).resolves.toMatchObject({
        resourceUri: null,
      });
      await expect(
        engine.registry.updateExchange('ledger', { resourceUri: 'urn:platform:reports' }),
      ).resolves.toMatchObject({ resourceUri: 'urn:platform:reports' });
    });

    it('refuses a resource URI another app is as conflict, changing nothing', async () => {
      const engine = await createTestEngine();
      await engine.registry.register(serviceApp({ resourceUri: 'urn:platform:reports' }));
      const { app: ledger } = await engine.seed({ clientId: 'ledger' });

      await expectDomainError(
        engine.registry.updateExchange('ledger', {
          resourceUri: 'urn:platform:reports',
          mayImpersonate: true,
        }),
        'conflict',
      );
      await expect(engine.registry.get('ledger')).resolves.toEqual(ledger);
      expect(engine.stores.tokenEvents.all().map((e) => e.type)).toEqual(['app.registered']);
    });

    it('refuses an unknown app as not_found', async () => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.updateExchange('nobody', { mayImpersonate: true }),
        'not_found',
      );
    });

    it('refuses a patch that names nothing, or a bad URI, as validation_failed', async () => {
      const engine = await createTestEngine();
      await engine.seed({ clientId: 'ledger' });
      await expectDomainError(engine.registry.updateExchange('ledger', {}), 'validation_failed');
      await expectDomainError(
        engine.registry.updateExchange('ledger', { resourceUri: 'http://ledger.example' }),
        'validation_failed',
      );
      await expectDomainError(
        engine.registry.updateExchange('ledger', { exchangeAudiences: ['urn:platform:a', 'ftp://b'] }),
        'validation_failed',
      );
      expect(engine.stores.tokenEvents.all()).toEqual([]);
    });

    it('records app.updated, audited with what changed', async () => {
      const engine = await createTestEngine();
      await engine.seed({ clientId: 'ledger' });
      const registry = new ApplicationRegistry(
        engine.stores.applications,
        engine.scopeRegistry,
        engine.hasher,
        new AuditedTransactor(engine.transactor, new AuditTrail(engine.clock)),
        { accessTokenLifetimeSeconds: 3600, adminClientId: ADMIN_CLIENT_ID },
        engine.clock,
      );

      await registry.updateExchange('ledger', {
        resourceUri: 'urn:platform:ledger',
        exchangeAudiences: ['urn:platform:a', 'https://b.example'],
        mayImpersonate: true,
      });

      expect(engine.stores.tokenEvents.all()).toMatchObject([{ type: 'app.updated', clientId: 'ledger' }]);
      expect(engine.stores.audit.all()).toMatchObject([
        {
          action: 'app.updated',
          actorKind: 'platform',
          target: 'ledger',
          attributes: {
            client_id: 'ledger',
            resource_uri: 'urn:platform:ledger',
            token_exchange_audiences: 'urn:platform:a https://b.example',
            impersonation_allowed: true,
          },
        },
      ]);
    });
  });

  describe('scopeRuleBreaches', () => {
    it('names the apps registered before the 1.0 rules and the scopes they are never granted', async () => {
      const engine = await createTestEngine();
      await engine.registry.register(webApp({ declaredScopes: ['jobs.read'] }));
      const legacy = { ...(await engine.registry.get('web-portal')), clientId: 'legacy-portal' };
      await engine.stores.applications.insertApplication({
        ...legacy,
        declaredScopes: ['jobs.*', 'admin.*'],
      });
      const breaches = await engine.registry.scopeRuleBreaches();
      expect(breaches.map(({ app, neverGranted }) => [app.clientId, neverGranted])).toEqual([
        ['legacy-portal', ['admin.*']],
      ]);
    });
  });

  describe('redirectUriRuleBreaches', () => {
    it('names the apps registered before the redirect URI rules and what their URIs break', async () => {
      const engine = await createTestEngine();
      await engine.registry.register(webApp());
      const legacy = {
        ...(await engine.registry.get('web-portal')),
        clientId: 'legacy-cli',
        appType: 'cli' as const,
      };
      await engine.stores.applications.insertApplication({
        ...legacy,
        redirectUris: [
          'http://127.0.0.1/cb',
          'http://localhost:8080/cb',
          'https://user:pw@cli.example.com/cb',
        ],
      });
      const breaches = await engine.registry.redirectUriRuleBreaches();
      expect(breaches.map(({ app, problems }) => [app.clientId, problems])).toEqual([
        [
          'legacy-cli',
          [
            'redirect_uris[1] names localhost: use 127.0.0.1 or [::1] (RFC 8252 section 8.3)',
            'redirect_uris[2] has userinfo (user:password@): never part of a redirect URI',
          ],
        ],
      ]);
    });
  });

  describe('get and list', () => {
    it('refuses an unknown client_id as not_found', async () => {
      const engine = await createTestEngine();
      await expectDomainError(engine.registry.get('nobody'), 'not_found');
    });

    it('lists applications by client_id, a page at a time', async () => {
      const engine = await createTestEngine();
      for (const clientId of ['charlie', 'alpha', 'bravo']) await engine.seed({ clientId });
      const first = await engine.registry.list({ limit: 2 });
      expect(first.items.map((a) => a.clientId)).toEqual(['alpha', 'bravo']);
      expect(first.nextAfter).toBe('bravo');
      const second = await engine.registry.list({ after: 'bravo', limit: 2 });
      expect(second).toMatchObject({ items: [{ clientId: 'charlie' }], nextAfter: null });
    });
  });

  describe('rotateSecret', () => {
    it('returns a new secret that works at once, and the old one stops working at once', async () => {
      const engine = await createTestEngine();
      const { clientSecret: oldSecret } = await engine.registry.register(serviceApp());
      await expect(secretWorks(engine, 'reports-worker', oldSecret!)).resolves.toBe(true); // now cached

      engine.clock.advanceSeconds(60);
      const rotated = await engine.registry.rotateSecret('reports-worker');

      expect(rotated).toEqual({
        clientId: 'reports-worker',
        clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        rotatedAt: new Date(TEST_START.getTime() + 60_000),
      });
      expect(rotated.clientSecret).not.toBe(oldSecret);
      await expect(secretWorks(engine, 'reports-worker', rotated.clientSecret)).resolves.toBe(true);
      await expect(secretWorks(engine, 'reports-worker', oldSecret!)).resolves.toBe(false);
    });

    it('stores the rotation time and records an app.secret_rotated event', async () => {
      const engine = await createTestEngine();
      await engine.registry.register(serviceApp());
      const { rotatedAt } = await engine.registry.rotateSecret('reports-worker');
      await expect(engine.registry.get('reports-worker')).resolves.toMatchObject({ rotatedAt });
      expect(engine.stores.tokenEvents.all().map((e) => e.type)).toEqual([
        'app.registered',
        'app.secret_rotated',
      ]);
    });

    it('refuses to rotate the secret of a spa as conflict', async () => {
      const engine = await createTestEngine();
      await engine.registry.register(webApp({ appType: 'spa' }));
      await expectDomainError(engine.registry.rotateSecret('web-portal'), 'conflict');
    });

    it('refuses an unknown app as not_found', async () => {
      const engine = await createTestEngine();
      await expectDomainError(engine.registry.rotateSecret('nobody'), 'not_found');
    });
  });

  describe('delete', () => {
    it('refuses an unknown app as not_found and changes nothing', async () => {
      const engine = await createTestEngine();
      await expectDomainError(engine.registry.delete('nobody'), 'not_found');
      expect(engine.stores.revocations.all()).toEqual([]);
      expect(engine.stores.tokenEvents.all()).toEqual([]);
    });

    it('removes the app so that its secret no longer authenticates', async () => {
      const engine = await createTestEngine();
      const worker = await engine.seed({ clientId: 'reports-worker' });
      await engine.registry.delete('reports-worker');
      await expectDomainError(engine.registry.get('reports-worker'), 'not_found');
      await expectOAuthError(
        engine.tokenEndpoint.handle(
          { grant_type: 'client_credentials', client_id: 'reports-worker', client_secret: worker.secret! },
          undefined,
        ),
        'invalid_client',
      );
    });

    it('puts the client on the deny-list for one token lifetime, so its tokens stop working at once', async () => {
      const engine = await createTestEngine();
      const worker = await engine.seed({ clientId: 'reports-worker' });
      const token = await engine.tokenFor(worker);
      engine.clock.advanceSeconds(5);
      await engine.registry.delete('reports-worker');
      const deletedAt = new Date(TEST_START.getTime() + 5000);
      expect(engine.stores.revocations.all()).toEqual([
        {
          seq: 1,
          kind: 'client',
          value: 'reports-worker',
          expiresAt: new Date(deletedAt.getTime() + HOUR_MS),
          createdAt: deletedAt,
        },
      ]);
      await expect(engine.validator.validate(token)).resolves.toBeNull();
    });

    it('revokes the refresh tokens of the app and no others', async () => {
      const engine = await createTestEngine();
      await engine.seed({ clientId: 'web-portal', appType: 'web' });
      const own = aRefreshToken({ clientId: 'web-portal', grantId: 'grant-1' });
      const other = aRefreshToken({ clientId: 'other-portal', grantId: 'grant-2' });
      for (const t of [own, other]) await engine.stores.refreshTokens.insertRefreshToken(t.record);
      await engine.registry.delete('web-portal');
      const revoked = new Map(engine.stores.refreshTokens.all().map((t) => [t.grantId, t.revokedAt]));
      expect(revoked.get('grant-1')).toEqual(TEST_START);
      expect(revoked.get('grant-2')).toBeNull();
    });

    it('kills the refresh tokens the app got through the code flow, and their access tokens', async () => {
      const engine = await createTestEngine();
      const portal = await engine.seed({ clientId: 'web-portal', appType: 'web' });
      const { code } = await approvedCode(engine, portal);
      const tokens = await engine.tokenEndpoint.handle(codeExchange(portal, code), undefined);
      await engine.registry.delete('web-portal');
      expect(engine.stores.refreshTokens.all().map((t) => t.revokedAt)).toEqual([TEST_START]);
      await expect(engine.validator.validate(tokens.access_token)).resolves.toBeNull();
      await expectOAuthError(
        engine.tokenEndpoint.handle(
          { grant_type: 'refresh_token', client_id: 'web-portal', refresh_token: tokens.refresh_token! },
          undefined,
        ),
        'invalid_client',
      );
    });

    it('records an app.deleted event', async () => {
      const engine = await createTestEngine();
      await engine.seed({ clientId: 'reports-worker' });
      await engine.registry.delete('reports-worker');
      expect(engine.stores.tokenEvents.all()).toEqual([
        {
          id: 1,
          type: 'app.deleted',
          clientId: 'reports-worker',
          subject: null,
          jti: null,
          grantId: null,
          occurredAt: TEST_START,
        },
      ]);
    });

    it('refuses to delete the bootstrap admin app as conflict', async () => {
      const engine = await createTestEngine();
      await engine.registry.ensureAdminApp(ADMIN_CLIENT_ID, undefined);
      await expectDomainError(engine.registry.delete(ADMIN_CLIENT_ID), 'conflict');
      await expect(engine.registry.get(ADMIN_CLIENT_ID)).resolves.toMatchObject({
        clientId: ADMIN_CLIENT_ID,
      });
      expect(engine.stores.revocations.all()).toEqual([]);
    });
  });

  describe('ensureAdminApp', () => {
    it('creates the admin service app with admin.* and returns the secret it generated', async () => {
      const engine = await createTestEngine();
      const secret = await engine.registry.ensureAdminApp(ADMIN_CLIENT_ID, undefined);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await expect(engine.registry.get(ADMIN_CLIENT_ID)).resolves.toMatchObject({
        appType: 'service',
        declaredScopes: ['admin.*'],
        redirectUris: [],
      });
      await expect(
        engine.tokenEndpoint.handle(
          { grant_type: 'client_credentials', client_id: ADMIN_CLIENT_ID, client_secret: secret! },
          undefined,
        ),
      ).resolves.toMatchObject({ scope: 'admin.*' });
    });

    it('creates the admin app with the configured secret and returns nothing to write down', async () => {
      const engine = await createTestEngine();
      await expect(
        engine.registry.ensureAdminApp(ADMIN_CLIENT_ID, 'operator-chosen-secret'),
      ).resolves.toBeUndefined();
      await expect(secretWorks(engine, ADMIN_CLIENT_ID, 'operator-chosen-secret')).resolves.toBe(true);
    });

    it('makes a configured secret replace a different stored one', async () => {
      const engine = await createTestEngine();
      const generated = await engine.registry.ensureAdminApp(ADMIN_CLIENT_ID, undefined);
      engine.clock.advanceSeconds(30);
      await expect(
        engine.registry.ensureAdminApp(ADMIN_CLIENT_ID, 'operator-chosen-secret'),
      ).resolves.toBeUndefined();
      await expect(secretWorks(engine, ADMIN_CLIENT_ID, 'operator-chosen-secret')).resolves.toBe(true);
      await expect(secretWorks(engine, ADMIN_CLIENT_ID, generated!)).resolves.toBe(false);
      await expect(engine.registry.get(ADMIN_CLIENT_ID)).resolves.toMatchObject({
        rotatedAt: new Date(TEST_START.getTime() + 30_000),
      });
    });

    it('changes nothing on later starts with the same or no configured secret', async () => {
      const engine = await createTestEngine();
      await engine.registry.ensureAdminApp(ADMIN_CLIENT_ID, 'operator-chosen-secret');
      const before = await engine.registry.get(ADMIN_CLIENT_ID);
      engine.clock.advanceSeconds(30);
      await expect(
        engine.registry.ensureAdminApp(ADMIN_CLIENT_ID, 'operator-chosen-secret'),
      ).resolves.toBeUndefined();
      await expect(engine.registry.ensureAdminApp(ADMIN_CLIENT_ID, undefined)).resolves.toBeUndefined();
      await expect(engine.registry.get(ADMIN_CLIENT_ID)).resolves.toEqual(before);
    });

    // Two control-plane replicas starting together on one database both find no admin app;
    // only one insert can win. A secret handed back to be written down must be the stored one.
    it('never returns a generated secret that was not stored (concurrent first starts)', async () => {
      const engine = await createTestEngine();
      const returned = await Promise.all([
        engine.registry.ensureAdminApp(ADMIN_CLIENT_ID, undefined),
        engine.registry.ensureAdminApp(ADMIN_CLIENT_ID, undefined),
      ]);
      for (const secret of returned.filter((s): s is string => s !== undefined)) {
        await expect(secretWorks(engine, ADMIN_CLIENT_ID, secret)).resolves.toBe(true);
      }
    });
  });

  describe('registerServiceAccount', () => {
    it('registers a service app under svc-<slug of name>-<6 hex> and shows its secret once', async () => {
      const engine = await createTestEngine();
      const { app, clientSecret } = await engine.registry.registerServiceAccount({
        name: 'Nightly Reports!',
        declaredScopes: ['jobs.read'],
      });
      expect(app.clientId).toMatch(/^svc-nightly-reports-[0-9a-f]{6}$/);
      expect(app).toMatchObject({
        appType: 'service',
        name: 'Nightly Reports!',
        declaredScopes: ['jobs.read'],
      });
      await expect(secretWorks(engine, app.clientId, clientSecret!)).resolves.toBe(true);
    });

    it('declares no scope when none is given, and such an account still gets a token', async () => {
      const engine = await createTestEngine();
      const { app, clientSecret } = await engine.registry.registerServiceAccount({ name: 'probe' });
      expect(app.declaredScopes).toEqual([]);
      const token = await engine.tokenEndpoint.handle(
        { grant_type: 'client_credentials', client_id: app.clientId, client_secret: clientSecret! },
        undefined,
      );
      expect(token.scope).toBe('');
    });

    it('refuses undefined scopes and a blank name', async () => {
      const engine = await createTestEngine();
      await expectDomainError(
        engine.registry.registerServiceAccount({ name: 'x', declaredScopes: ['nope.read'] }),
        'validation_failed',
      );
      await expectDomainError(engine.registry.registerServiceAccount({ name: '  ' }), 'validation_failed');
    });

    it('keeps client ids within 64 characters, whatever the name', () => {
      expect(serviceAccountClientId('A'.repeat(200))).toMatch(/^svc-a{40}-[0-9a-f]{6}$/);
      expect(serviceAccountClientId('***')).toMatch(/^svc-account-[0-9a-f]{6}$/);
      expect(serviceAccountClientId('Ünïcöde job')).toMatch(/^svc-unicode-job-[0-9a-f]{6}$/);
    });
  });
});
