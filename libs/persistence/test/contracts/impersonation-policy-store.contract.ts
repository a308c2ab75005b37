import type { Contract } from '../support/contract';
import { at, uniqueId } from '../support/factories';

export const impersonationPolicyStoreContract: Contract = (context) => {
  const store = () => context().stores.impersonationPolicies;

  it('answers null for a tenant that never chose', async () => {
    await expect(store().findImpersonationPolicy(uniqueId('tenant'))).resolves.toBeNull();
  });

  it('keeps each tenant’s mode, the last write winning', async () => {
    const [acme, globex] = [uniqueId('acme'), uniqueId('globex')];
    await store().putImpersonationPolicy(acme, 'read_only', at(0));
    await store().putImpersonationPolicy(globex, 'disabled', at(0));
    await store().putImpersonationPolicy(acme, 'full', at(1_000));

    await expect(store().findImpersonationPolicy(acme)).resolves.toBe('full');
    await expect(store().findImpersonationPolicy(globex)).resolves.toBe('disabled');
  });

  it('takes concurrent first writes of one tenant without a clash', async () => {
    const tenant = uniqueId('tenant');
    await Promise.all(
      (['disabled', 'read_only', 'full'] as const).map((mode) =>
        store().putImpersonationPolicy(tenant, mode, at(0)),
      ),
    );

    await expect(store().findImpersonationPolicy(tenant)).resolves.toMatch(/^(disabled|read_only|full)$/);
  });
};
