import type { Contract } from '../support/contract';
import { at } from '../support/factories';

export const scopeStoreContract: Contract = (context) => {
  const store = () => context().stores.scopes;

  it('lists stored scopes by name', async () => {
    const write = { name: 'reports.write', description: 'Write reports', createdAt: at(2) };
    const read = { name: 'reports.read', description: 'Read reports', createdAt: at(1) };
    await store().insertScope(write);
    await store().insertScope(read);

    await expect(store().listScopes()).resolves.toEqual([read, write]);
  });

  it('lists scope names by code point on every database, whatever its collation', async () => {
    for (const name of ['a_b.read', 'a.read', 'a-b.read', 'ab.read'])
      await store().insertScope({ name, description: name, createdAt: at(1) });

    const listed = await store().listScopes();
    expect(listed.map((s) => s.name)).toEqual(['a-b.read', 'a.read', 'a_b.read', 'ab.read']);
  });

  it('lists nothing when no scope was defined', async () => {
    await expect(store().listScopes()).resolves.toEqual([]);
  });

  it('reports a duplicate scope name instead of throwing, keeping the first', async () => {
    const scope = { name: 'reports.read', description: 'Read reports', createdAt: at(0) };
    await expect(store().insertScope(scope)).resolves.toBe('created');

    await expect(store().insertScope({ ...scope, description: 'Other' })).resolves.toBe('duplicate');
    await expect(store().listScopes()).resolves.toEqual([scope]);
  });
};
