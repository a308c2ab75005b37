import { AuditTrail } from '../audit/audit-trail';
import type { ActingPrincipal } from '../authority/principal';
import { ManualClock } from '../clock';
import { expectDomainError, inMemoryStorage, seedApplication, TEST_START } from '../testing/in-memory-stores';
import { FederationRegistry } from './federation-registry';
import type { FederationRule } from './workload-federation';

const ISSUER = 'https://token.actions.example';
const tenantAdmin = (tenant: string): ActingPrincipal => ({
  kind: 'user',
  id: `admin-of-${tenant}`,
  clientId: 'console',
  tenant,
  roles: ['tenant_admin'],
  scopes: ['federation.write', 'federation.read'],
});

async function setUp() {
  const clock = new ManualClock(TEST_START);
  const { stores, transactor } = inMemoryStorage();
  await seedApplication(stores, { clientId: 'deployer', tenant: 'acme', declaredScopes: ['secrets.read'] });
  await seedApplication(stores, {
    clientId: 'globex-deployer',
    tenant: 'globex',
    declaredScopes: ['secrets.read'],
  });
  await seedApplication(stores, { clientId: 'unbound', declaredScopes: ['secrets.read'] });
  await seedApplication(stores, { clientId: 'console-web', appType: 'web', declaredScopes: ['jobs.read'] });
  const registry = new FederationRegistry(
    stores,
    transactor,
    new AuditTrail(clock),
    { allowPrivateNetworks: false },
    clock,
  );
  const rule = (overrides: Partial<FederationRule> = {}): FederationRule => ({
    name: 'deploy-from-main',
    audience: 'https://platform.example',
    subject: 'repo:acme/ledger:ref:refs/heads/main',
    claims: { repository: 'acme/ledger' },
    clientId: 'deployer',
    scopes: ['secrets.read'],
    ...overrides,
  });
  return { stores, registry, rule };
}

describe(FederationRegistry.name, () => {
  it('registers an issuer of the tenant with its rules, audited in the tenant', async () => {
    const { registry, rule, stores } = await setUp();
    const issuer = await registry.register(tenantAdmin('acme'), 'acme', { issuer: ISSUER, rules: [rule()] });
    expect(issuer).toMatchObject({ tenant: 'acme', issuer: ISSUER, jwksUri: null, rules: [rule()] });
    await expect(registry.list(tenantAdmin('acme'), 'acme')).resolves.toEqual([issuer]);
    const records = await stores.audit.listAuditRecords({ limit: 10 });
    expect(records).toContainEqual(
      expect.objectContaining({ action: 'federation.issuer_registered', tenant: 'acme', target: issuer.id }),
    );
  });

  it('refuses another tenant’s administrator', async () => {
    const { registry, rule } = await setUp();
    await expectDomainError(
      registry.register(tenantAdmin('globex'), 'acme', { issuer: ISSUER, rules: [rule()] }),
      'forbidden',
    );
  });

  it.each([
    ['the audience alone', { subject: undefined, claims: {} }],
    ['an app of another tenant', { clientId: 'globex-deployer' }],
    ['an app bound to no tenant', { clientId: 'unbound' }],
    ['an app that is not a service', { clientId: 'console-web' }],
    ['a scope the app does not declare', { scopes: ['secrets.write'] }],
    ['a reserved claim as a condition', { claims: { iss: ISSUER } }],
    ['a claim value that is not a string', { claims: { run_attempt: 1 as unknown as string } }],
  ])('refuses a rule naming %s', async (_, overrides) => {
    const { registry, rule } = await setUp();
    await expectDomainError(
      registry.register(tenantAdmin('acme'), 'acme', { issuer: ISSUER, rules: [rule(overrides)] }),
      'validation_failed',
    );
  });

  it('refuses an issuer on plain http or a private address, and a second registration of one issuer', async () => {
    const { registry, rule } = await setUp();
    for (const issuer of ['http://token.actions.example', 'https://10.0.0.7', 'https://localhost']) {
      await expectDomainError(
        registry.register(tenantAdmin('acme'), 'acme', { issuer, rules: [rule()] }),
        'validation_failed',
      );
    }
    await registry.register(tenantAdmin('acme'), 'acme', { issuer: ISSUER, rules: [rule()] });
    await expectDomainError(
      registry.register(tenantAdmin('acme'), 'acme', { issuer: ISSUER, rules: [rule()] }),
      'conflict',
    );
  });

  it('replaces the rules, and deletes, within the tenant', async () => {
    const { registry, rule } = await setUp();
    const issuer = await registry.register(tenantAdmin('acme'), 'acme', { issuer: ISSUER, rules: [rule()] });
    const updated = await registry.update(tenantAdmin('acme'), 'acme', issuer.id, {
      rules: [rule({ name: 'renamed' })],
      jwksUri: 'https://token.actions.example/.well-known/jwks',
    });
    expect(updated).toMatchObject({
      rules: [{ name: 'renamed' }],
      jwksUri: 'https://token.actions.example/.well-known/jwks',
    });
    await expectDomainError(registry.get(tenantAdmin('globex'), 'globex', issuer.id), 'not_found');
    await registry.delete(tenantAdmin('acme'), 'acme', issuer.id);
    await expectDomainError(registry.get(tenantAdmin('acme'), 'acme', issuer.id), 'not_found');
  });
});
