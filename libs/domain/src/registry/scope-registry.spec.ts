import { STANDARD_SCOPES } from '../scopes';
import { ManualClock } from '../clock';
import { AuditTrail } from '../audit/audit-trail';
import {
  expectDomainError,
  InMemoryStores,
  InMemoryTransactor,
  TEST_START,
} from '../testing/in-memory-stores';
import { ScopeRegistry } from './scope-registry';

function setUp() {
  const stores = new InMemoryStores();
  const clock = new ManualClock();
  const registry = new ScopeRegistry(
    stores.scopes,
    new InMemoryTransactor(stores),
    new AuditTrail(clock),
    clock,
  );
  return { store: stores.scopes, audit: stores.audit, registry };
}

describe(ScopeRegistry.name, () => {
  it('audits a definition with who made it, and a refused one not at all', async () => {
    const { registry, audit } = setUp();
    await registry.define('reports.read', 'Read reports', { kind: 'app', id: 'admin' });
    await expectDomainError(
      registry.define('reports.read', 'Again', { kind: 'app', id: 'admin' }),
      'conflict',
    );

    expect(audit.all()).toEqual([
      expect.objectContaining({
        actorKind: 'app',
        actorId: 'admin',
        action: 'scope.defined',
        target: 'reports.read',
      }),
    ]);
  });

  it('defines a custom resource.action scope', async () => {
    const { registry, store } = setUp();
    await expect(registry.define('reports.read', 'Read reports')).resolves.toEqual({
      name: 'reports.read',
      description: 'Read reports',
      standard: false,
      createdAt: TEST_START,
    });
    await expect(store.listScopes()).resolves.toEqual([
      { name: 'reports.read', description: 'Read reports', createdAt: TEST_START },
    ]);
  });

  it.each(['billing.invoices.read', 'reports.*', 'data-lake.export_v2'])(
    'accepts the namespaced name %s',
    async (name) => {
      const { registry } = setUp();
      await expect(registry.define(name, 'A custom scope')).resolves.toMatchObject({ name });
    },
  );

  it.each([
    'reports',
    'Reports.read',
    'reports.',
    '.read',
    'reports read',
    '1reports.read',
    'reports.read!',
    '*',
    `r.${'a'.repeat(127)}`,
  ])('refuses the malformed name %s as validation_failed', async (name) => {
    const { registry } = setUp();
    await expectDomainError(registry.define(name, 'A custom scope'), 'validation_failed');
  });

  it('refuses an empty or overlong description as validation_failed', async () => {
    const { registry } = setUp();
    await expectDomainError(registry.define('reports.read', '   '), 'validation_failed');
    await expectDomainError(registry.define('reports.read', 'x'.repeat(501)), 'validation_failed');
  });

  it('refuses to redefine a standard scope as conflict', async () => {
    const { registry } = setUp();
    await expectDomainError(registry.define('jobs.read', 'Mine now'), 'conflict');
    await expectDomainError(registry.define('admin.*', 'Mine now'), 'conflict');
  });

  it('refuses a scope that is already defined as conflict', async () => {
    const { registry } = setUp();
    await registry.define('reports.read', 'Read reports');
    await expectDomainError(registry.define('reports.read', 'Again'), 'conflict');
  });

  it('lists the standard scopes, then the custom ones', async () => {
    const { registry } = setUp();
    await registry.define('reports.read', 'Read reports');
    const scopes = await registry.list();
    expect(scopes.slice(0, STANDARD_SCOPES.length)).toEqual(
      STANDARD_SCOPES.map((s) => ({
        name: s.name,
        description: s.description,
        standard: true,
        createdAt: null,
      })),
    );
    expect(scopes.slice(STANDARD_SCOPES.length)).toEqual([
      { name: 'reports.read', description: 'Read reports', standard: false, createdAt: TEST_START },
    ]);
  });

  it('lists every spec scope, tokens.introspect and the users scopes among the standard ones', async () => {
    const { registry } = setUp();
    expect(await registry.definedNames()).toEqual(
      expect.arrayContaining([
        'jobs.read',
        'jobs.write',
        'files.read',
        'files.write',
        'secrets.read',
        'secrets.write',
        'audit.write',
        'admin.*',
        'tokens.introspect',
        'users.read',
        'users.write',
      ]),
    );
  });

  describe('describe', () => {
    it('gives standard and custom scopes their own description, in the order asked', async () => {
      const { registry } = setUp();
      await registry.define('reports.read', 'Read reports');
      await expect(registry.describe(['reports.read', 'jobs.read'])).resolves.toEqual([
        { name: 'reports.read', description: 'Read reports' },
        { name: 'jobs.read', description: 'List and view job executions' },
      ]);
    });

    it('describes a scope covered by a defined wildcard with that wildcard', async () => {
      const { registry } = setUp();
      await expect(registry.describe(['admin.users'])).resolves.toEqual([
        { name: 'admin.users', description: 'Full administrative access' },
      ]);
    });

    it('describes a wildcard by everything it covers', async () => {
      const { registry } = setUp();
      await expect(registry.describe(['files.*'])).resolves.toEqual([
        { name: 'files.*', description: 'Read file content and metadata; Upload and delete files' },
      ]);
    });
  });
});
