import { SCIM_KEY_MAX_LENGTH } from '@platform/domain';
import type { Contract } from '../support/contract';
import { anExternalUser, aProvisionedUser, at, T0 } from '../support/factories';

/** What a user only the login flow knows holds of the SCIM attributes. */
const LOGIN_ONLY = {
  groupRoles: [],
  userName: null,
  externalId: null,
  active: true,
  profile: null,
  version: 1,
};

export const userStoreContract: Contract = (context) => {
  const store = () => context().stores.users;

  it('creates a user on the first sight of an external identity', async () => {
    const external = anExternalUser();

    const user = await store().upsertUserByExternalId(external, T0);

    const { keepStoredRoles, ...stored } = external;
    expect(user).toEqual({ ...stored, ...LOGIN_ONLY, id: expect.any(String), createdAt: T0, updatedAt: T0 });
    await expect(store().findUser(user.id)).resolves.toEqual(user);
  });

  it('updates the same user when the identity returns, keeping its id and creation time', async () => {
    const external = anExternalUser();
    const created = await store().upsertUserByExternalId(external, T0);

    const changed = { ...external, email: null, name: 'Ada King', tenant: 'other', roles: ['admin'] };
    const updated = await store().upsertUserByExternalId(changed, at(1_000));

    const { keepStoredRoles, ...stored } = changed;
    expect(updated).toEqual({
      ...stored,
      ...LOGIN_ONLY,
      id: created.id,
      createdAt: T0,
      updatedAt: at(1_000),
    });
    await expect(store().findUser(created.id)).resolves.toEqual(updated);
  });

  it('keeps the roles an admin bound when the provider says nothing about roles', async () => {
    const created = await store().upsertUserByExternalId(anExternalUser({ roles: ['user'] }), T0);
    await store().setUserRoles(created.id, ['tenant_admin'], at(5));

    const silent = anExternalUser({
      issuer: created.issuer!,
      subject: created.subject!,
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

  describe('provisioned users (SCIM)', () => {
    it('stores a provisioned user without a login identity, and finds it by userName case-insensitively', async () => {
      const input = aProvisionedUser({ userName: 'Grace.Hopper@Example.com' });

      await expect(store().insertProvisionedUser(input, T0)).resolves.toBe('created');

      const { id, roles, ...provisioned } = input;
      const expected = {
        ...provisioned,
        id,
        roles,
        groupRoles: [],
        issuer: null,
        subject: null,
        version: 1,
        createdAt: T0,
        updatedAt: T0,
      };
      await expect(store().findUser(id)).resolves.toEqual(expected);
      await expect(store().findUserByUserName('acme', 'grace.hopper@example.COM')).resolves.toEqual(expected);
      await expect(store().findUserByUserName('globex', 'grace.hopper@example.com')).resolves.toBeNull();
    });

    it('folds the case of non-ASCII letters in a userName alike on every database', async () => {
      // SQLite's lower() folds ASCII only, Postgres's every letter: the key is folded before either sees it.
      const input = aProvisionedUser({ userName: 'Élodie.Ørsted@Example.com' });
      await store().insertProvisionedUser(input, T0);

      await expect(store().findUserByUserName('acme', 'élodie.ørsted@example.com')).resolves.toMatchObject({
        id: input.id,
      });
    });

    it('keeps and finds a userName and an externalId as long as SCIM takes, on every database', async () => {
      // 4-byte characters: the most bytes the limit lets through, under Postgres's index entry bound.
      const longest = '𝔸'.repeat(SCIM_KEY_MAX_LENGTH);
      const input = aProvisionedUser({ userName: longest, externalId: longest });
      await store().insertProvisionedUser(input, T0);

      await expect(store().findUserByUserName('acme', longest)).resolves.toMatchObject({
        id: input.id,
        userName: longest,
        externalId: longest,
      });
    });

    it('refuses a second userName of the same tenant in another case, and allows it in another tenant', async () => {
      await store().insertProvisionedUser(aProvisionedUser({ userName: 'Twin@Example.com' }), T0);

      await expect(
        store().insertProvisionedUser(aProvisionedUser({ userName: 'twin@example.com' }), T0),
      ).resolves.toBe('duplicate');
      await expect(
        store().insertProvisionedUser(
          aProvisionedUser({ userName: 'twin@example.com', tenant: 'globex' }),
          T0,
        ),
      ).resolves.toBe('created');
    });

    it('updates only at the expected version, adding one to it', async () => {
      const input = aProvisionedUser();
      await store().insertProvisionedUser(input, T0);
      const { id, roles, ...fields } = input;

      const changed = { ...fields, active: false, profile: { displayName: 'Amazing Grace' } };
      await expect(store().updateProvisionedUser(id, 1, changed, at(5))).resolves.toBe('updated');
      await expect(store().updateProvisionedUser(id, 1, fields, at(6))).resolves.toBe('version_mismatch');
      await expect(store().updateProvisionedUser('no-such-user', 1, fields, at(6))).resolves.toBe(
        'not_found',
      );

      await expect(store().findUser(id)).resolves.toMatchObject({
        active: false,
        profile: { displayName: 'Amazing Grace' },
        version: 2,
        roles,
        updatedAt: at(5),
      });
    });

    it('answers duplicate when an update takes a userName another user of the tenant has', async () => {
      const taken = aProvisionedUser();
      const other = aProvisionedUser();
      await store().insertProvisionedUser(taken, T0);
      await store().insertProvisionedUser(other, T0);
      const { id, roles, ...fields } = other;

      await expect(
        store().updateProvisionedUser(id, 1, { ...fields, userName: taken.userName.toUpperCase() }, at(5)),
      ).resolves.toBe('duplicate');
      await expect(store().findUser(id)).resolves.toMatchObject({ userName: other.userName, version: 1 });
    });

    it('lets exactly one of two updates at the same version win', async () => {
      const input = aProvisionedUser();
      await store().insertProvisionedUser(input, T0);
      const { id, roles, ...fields } = input;

      const outcomes = await Promise.all([
        store().updateProvisionedUser(id, 1, { ...fields, name: 'A' }, at(5)),
        store().updateProvisionedUser(id, 1, { ...fields, name: 'B' }, at(5)),
      ]);

      expect(outcomes.sort()).toEqual(['updated', 'version_mismatch']);
    });

    it('finds the unlinked user a first login claims: by externalId = sub, else by userName = email', async () => {
      const byExternalId = aProvisionedUser({ tenant: 'link-acme' });
      const byUserName = aProvisionedUser({ tenant: 'link-acme', externalId: null });
      await store().insertProvisionedUser(byExternalId, T0);
      await store().insertProvisionedUser(byUserName, T0);
      const issuer = 'https://idp.example';

      await expect(
        store().findUnlinkedUser('link-acme', { issuer, subject: byExternalId.externalId!, userName: null }),
      ).resolves.toMatchObject({ id: byExternalId.id });
      await expect(
        store().findUnlinkedUser('link-acme', {
          issuer,
          subject: 'sub-x',
          userName: byUserName.userName.toUpperCase(),
        }),
      ).resolves.toMatchObject({ id: byUserName.id });
      await expect(
        store().findUnlinkedUser('link-globex', {
          issuer,
          subject: byExternalId.externalId!,
          userName: null,
        }),
      ).resolves.toBeNull();

      await expect(
        store().linkUserIdentity(byUserName.id, { issuer, subject: 'sub-x' }, at(9)),
      ).resolves.toBe(true);
      await expect(
        store().linkUserIdentity(byUserName.id, { issuer, subject: 'sub-y' }, at(9)),
      ).resolves.toBe(false);
      await expect(
        store().findUnlinkedUser('link-acme', { issuer, subject: 'sub-x', userName: byUserName.userName }),
      ).resolves.toBeNull();
      const linked = await store().upsertUserByExternalId(
        anExternalUser({ issuer, subject: 'sub-x', tenant: 'link-acme', keepStoredRoles: true }),
        at(10),
      );
      expect(linked).toMatchObject({
        id: byUserName.id,
        userName: byUserName.userName,
        issuer,
        subject: 'sub-x',
      });
    });

    it('deletes a user', async () => {
      const input = aProvisionedUser();
      await store().insertProvisionedUser(input, T0);

      await expect(store().deleteUser(input.id)).resolves.toBe(true);
      await expect(store().deleteUser(input.id)).resolves.toBe(false);
      await expect(store().findUser(input.id)).resolves.toBeNull();
    });
  });
};
