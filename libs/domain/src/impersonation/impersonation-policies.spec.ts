import { AuditTrail } from '../audit/audit-trail';
import { DomainError } from '../errors';
import { InMemoryStores, InMemoryTransactor, TEST_START } from '../testing/in-memory-stores';
import type { ActingPrincipal } from '../users/user-administration';
import { ImpersonationPolicies } from './impersonation-policies';

const acmeAdmin: ActingPrincipal = {
  kind: 'user',
  id: 'user-ada',
  clientId: 'console',
  tenant: 'acme',
  roles: ['tenant_admin'],
  scopes: ['users.write'],
};

function service() {
  const stores = new InMemoryStores();
  const clock = { now: () => TEST_START };
  const policies = new ImpersonationPolicies(
    stores.impersonationPolicies,
    new InMemoryTransactor(stores),
    new AuditTrail(clock),
    clock,
  );
  return { stores, policies };
}

describe(ImpersonationPolicies.name, () => {
  it('answers full for a tenant that never chose', async () => {
    await expect(service().policies.get(acmeAdmin, 'acme')).resolves.toBe('full');
  });

  it('stores the mode and audits the change, with the mode it replaced', async () => {
    const { stores, policies } = service();

    await policies.put(acmeAdmin, 'acme', 'read_only');
    await policies.put(acmeAdmin, 'acme', 'disabled');

    await expect(policies.get(acmeAdmin, 'acme')).resolves.toBe('disabled');
    expect(stores.audit.all()).toMatchObject([
      {
        action: 'tenant.impersonation_policy_changed',
        actorKind: 'user',
        actorId: 'user-ada',
        tenant: 'acme',
        target: 'acme',
        attributes: { from: 'full', mode: 'read_only' },
      },
      { attributes: { from: 'read_only', mode: 'disabled' } },
    ]);
  });

  it('refuses a user of another tenant as forbidden, changing and auditing nothing', async () => {
    const { stores, policies } = service();

    await expect(policies.put(acmeAdmin, 'globex', 'disabled')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(policies.get(acmeAdmin, 'globex')).rejects.toBeInstanceOf(DomainError);
    await expect(stores.impersonationPolicies.findImpersonationPolicy('globex')).resolves.toBeNull();
    expect(stores.audit.all()).toEqual([]);
  });
});
