import type { Contract } from '../support/contract';
import { anExternalUser, at, T0 } from '../support/factories';

export const userStoreContract: Contract = (context) => {
  const store = () => context().stores.users;

  it('creates a user on the first sight of an external identity', async () => {
    const external = anExternalUser();

    const user = await store().upsertUserByExternalId(external, T0);

    const { keepStoredRoles, ...stored } = external;
    expect(user).toEqual({ ...stored, id: expect.any(String), createdAt: T0, updatedAt: T0 });
    await expect(store().findUser(user.id)).resolves.toEqual(user);
  });

  it('updates the same user when the identity returns, keeping its id and creation time', async () => {
    const external = anExternalUser();
    const created = await store().upsertUserByExternalId(external, T0);

    const changed = { ...external, email: null, name: 'Ada King', tenant: 'other', roles: ['admin'] };
    const updated = await store().upsertUserByExternalId(changed, at(1_000));

    const { keepStoredRoles, ...stored } = changed;
    expect(updated).toEqual({ ...stored, id: created.id, createdAt: T0, updatedAt: at(1_000) });
    await expect(store().findUser(created.id)).resolves.toEqual(updated);
  });

  it('keeps the roles an admin bound when the provider says nothing about roles', async () => {
    const created = await store().upsertUserByExternalId(anExternalUser({ roles: ['user'] }), T0);
    await store().setUserRoles(created.id, ['tenant_admin'], at(5));

    const silent = anExternalUser({
      issuer: created.issuer,
      subject: created.subject,
      roles: ['user'],
      keepStoredRoles: true,
    });
    const again = await store().upsertUserByExternalId({ ...silent, name: 'Ada King' }, at(10));

    expect(again).toMatchObject({ id: created.id, name: 'Ada King', roles: ['tenant_admin'] });
  });

  it('uses the given roles for a new user even when stored roles are to be kept', async () => {
    const user = await store().upsertUserByExternalId(
      anExternalUser({ roles: ['user'], keepStoredRoles: true }),
      T0,
    );
    expect(user.roles).toEqual(['user']);
  });

  it('keeps the same subject at two issuers apart', async () => {
    const first = await store().upsertUserByExternalId(anExternalUser({ subject: 'sub-1' }), T0);
    const second = await store().upsertUserByExternalId(
      anExternalUser({ subject: 'sub-1', issuer: 'https://other-idp.example' }),
      T0,
    );

    expect(second.id).not.toBe(first.id);
  });

  it('creates one user when two first logins race', async () => {
    const external = anExternalUser();

    const [a, b] = await Promise.all([
      store().upsertUserByExternalId(external, T0),
      store().upsertUserByExternalId(external, T0),
    ]);

    expect(a.id).toBe(b.id);
  });

  it('sets roles and says whether the user exists', async () => {
    const user = await store().upsertUserByExternalId(anExternalUser({ roles: [] }), T0);

    await expect(store().setUserRoles(user.id, ['global_admin', 'viewer'], at(5))).resolves.toBe(true);
    await expect(store().findUser(user.id)).resolves.toEqual({
      ...user,
      roles: ['global_admin', 'viewer'],
      updatedAt: at(5),
    });
    await expect(store().setUserRoles('no-such-user', ['viewer'], at(5))).resolves.toBe(false);
  });

  it('lists the users of one tenant only, ordered by id', async () => {
    const a = await store().upsertUserByExternalId(anExternalUser({ tenant: 'list-acme' }), T0);
    const b = await store().upsertUserByExternalId(anExternalUser({ tenant: 'list-acme' }), T0);
    await store().upsertUserByExternalId(anExternalUser({ tenant: 'list-globex' }), T0);

    const listed = await store().listUsersOfTenant('list-acme');

    expect(listed).toEqual([a, b].sort((x, y) => (x.id < y.id ? -1 : 1)));
    await expect(store().listUsersOfTenant('list-nobody')).resolves.toEqual([]);
  });

  it('answers null for an unknown id', async () => {
    await expect(store().findUser('00000000-0000-4000-8000-000000000000')).resolves.toBeNull();
  });
};
