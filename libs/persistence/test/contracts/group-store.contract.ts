import { randomUUID } from 'node:crypto';
import type { Contract } from '../support/contract';
import { aProvisionedUser, at, T0 } from '../support/factories';

export const groupStoreContract: Contract = (context) => {
  const groups = () => context().stores.groups;
  const users = () => context().stores.users;

  async function aMember(tenant = 'acme'): Promise<string> {
    const user = aProvisionedUser({ tenant });
    await users().insertProvisionedUser(user, T0);
    return user.id;
  }

  const aGroup = (members: string[], overrides: { tenant?: string; roles?: string[] } = {}) => ({
    id: randomUUID(),
    tenant: overrides.tenant ?? 'acme',
    displayName: 'Engineering',
    externalId: 'okta-00g1',
    roles: overrides.roles ?? ['tenant_admin'],
    members,
  });

  it('stores a group with its members and roles', async () => {
    const [a, b] = [await aMember(), await aMember()];
    const group = aGroup([b, a]);

    await groups().insertGroup(group, T0);

    await expect(groups().findGroup(group.id)).resolves.toEqual({
      ...group,
      members: [a, b].sort(),
      version: 1,
      createdAt: T0,
      updatedAt: T0,
    });
    await expect(groups().findGroup(randomUUID())).resolves.toBeNull();
  });

  it('lists the groups of a tenant and of a member', async () => {
    const member = await aMember('groups-acme');
    const first = aGroup([member], { tenant: 'groups-acme' });
    const second = aGroup([], { tenant: 'groups-acme' });
    await groups().insertGroup(first, T0);
    await groups().insertGroup(second, T0);
    await groups().insertGroup(aGroup([], { tenant: 'groups-globex' }), T0);

    const listed = await groups().listGroupsOfTenant('groups-acme');
    expect(listed.map((g) => g.id)).toEqual([first.id, second.id].sort());
    await expect(groups().listGroupsOfMember(member)).resolves.toMatchObject([{ id: first.id }]);
  });

  it('gives its members the roles of the group, in findUser and listUsersOfTenant', async () => {
    const member = await aMember('roles-acme');
    await groups().insertGroup(aGroup([member], { tenant: 'roles-acme', roles: ['tenant_admin'] }), T0);
    await groups().insertGroup(
      aGroup([member], { tenant: 'roles-acme', roles: ['viewer', 'tenant_admin'] }),
      T0,
    );

    await expect(users().findUser(member)).resolves.toMatchObject({
      roles: ['user'],
      groupRoles: ['tenant_admin', 'viewer'],
    });
    await expect(users().listUsersOfTenant('roles-acme')).resolves.toMatchObject([
      { id: member, groupRoles: ['tenant_admin', 'viewer'] },
    ]);
  });

  it('replaces a group only at the expected version; one of two racing updates wins', async () => {
    const [a, b] = [await aMember(), await aMember()];
    const group = aGroup([a]);
    await groups().insertGroup(group, T0);
    const change = { displayName: 'Platform', externalId: null, roles: [], members: [b] };

    const outcomes = await Promise.all([
      groups().updateGroup(group.id, 1, change, at(5)),
      groups().updateGroup(group.id, 1, { ...change, displayName: 'Other' }, at(5)),
    ]);

    expect(outcomes.sort()).toEqual(['updated', 'version_mismatch']);
    await expect(groups().findGroup(group.id)).resolves.toMatchObject({
      members: [b],
      roles: [],
      version: 2,
    });
    await expect(groups().updateGroup(randomUUID(), 1, change, at(6))).resolves.toBe('not_found');
  });

  it('drops a deleted user from its groups, and deletes a group', async () => {
    const [a, b] = [await aMember(), await aMember()];
    const group = aGroup([a, b]);
    await groups().insertGroup(group, T0);

    await users().deleteUser(a);
    await expect(groups().findGroup(group.id)).resolves.toMatchObject({ members: [b] });

    await expect(groups().deleteGroup(group.id)).resolves.toBe(true);
    await expect(groups().deleteGroup(group.id)).resolves.toBe(false);
    await expect(users().findUser(b)).resolves.toMatchObject({ groupRoles: [] });
  });
};
