import { DomainError } from '../errors';
import { ManualClock } from '../clock';
import { AuditTrail } from '../audit/audit-trail';
import { InMemoryStores, InMemoryTransactor, expectDomainError } from '../testing/in-memory-stores';
import type { User } from './user';
import { type ActingPrincipal, isPlatformAdmin, UserAdministration } from './user-administration';

const user = (tenant: string, roles: string[]): ActingPrincipal => ({
  kind: 'user',
  id: `${tenant}-caller`,
  clientId: 'portal',
  tenant,
  roles,
  scopes: ['users.read', 'users.write'],
});
const service = (scopes: string[]): ActingPrincipal => ({
  kind: 'service',
  id: 'svc',
  clientId: 'svc',
  tenant: null,
  roles: [],
  scopes,
});

async function setUp() {
  const stores = new InMemoryStores();
  const users = stores.users;
  const clock = new ManualClock();
  const add = (subject: string, tenant: string, roles: string[]): Promise<User> =>
    users.upsertUserByExternalId(
      {
        issuer: 'https://idp',
        subject,
        email: `${subject}@x`,
        name: subject,
        tenant,
        roles,
        keepStoredRoles: false,
      },
      clock.now(),
    );
  const ada = await add('ada', 'acme', ['user']);
  const bob = await add('bob', 'acme', ['viewer']);
  const root = await add('root', 'acme', ['global_admin']);
  const carol = await add('carol', 'globex', ['viewer']);
  const admin = new UserAdministration(users, new InMemoryTransactor(stores), new AuditTrail(clock), clock);
  return { admin, audit: stores.audit, ada, bob, root, carol };
}

describe(UserAdministration.name, () => {
  it('lists the users of the tenant only', async () => {
    const { admin, ada, bob, root } = await setUp();
    const listed = await admin.list(user('acme', ['viewer']), 'acme');
    expect(listed.map((u) => u.id).sort()).toEqual([ada.id, bob.id, root.id].sort());
  });

  it('answers not_found for a user of another tenant', async () => {
    const { admin, carol } = await setUp();
    await expectDomainError(admin.get(user('acme', ['tenant_admin']), 'acme', carol.id), 'not_found');
  });

  it('sets roles of the bundle', async () => {
    const { admin, ada } = await setUp();
    const updated = await admin.setRoles(user('acme', ['tenant_admin']), 'acme', ada.id, ['viewer', 'user']);
    expect(updated.roles).toEqual(['viewer', 'user']);
    await expect(admin.get(user('acme', ['viewer']), 'acme', ada.id)).resolves.toMatchObject({
      roles: ['viewer', 'user'],
    });
  });

  it('audits a role change with the caller as actor, and a refused one not at all', async () => {
    const { admin, audit, ada } = await setUp();
    await admin.setRoles(user('acme', ['tenant_admin']), 'acme', ada.id, ['viewer']);
    await expectDomainError(
      admin.setRoles(user('acme', ['tenant_admin']), 'acme', ada.id, ['global_admin']),
      'forbidden',
    );

    expect(audit.all()).toEqual([
      expect.objectContaining({
        actorKind: 'user',
        actorId: 'acme-caller',
        action: 'user.roles_changed',
        target: ada.id,
        tenant: 'acme',
        attributes: { from: 'user', to: 'viewer' },
      }),
    ]);
  });

  it.each([[['superuser']], [[]], ['user'], [[42]]])('refuses roles %j', async (roles) => {
    const { admin, ada } = await setUp();
    await expectDomainError(
      admin.setRoles(user('acme', ['tenant_admin']), 'acme', ada.id, roles),
      'validation_failed',
    );
  });

  it('lets only a global_admin grant global_admin', async () => {
    const { admin, ada } = await setUp();
    await expectDomainError(
      admin.setRoles(user('acme', ['tenant_admin']), 'acme', ada.id, ['global_admin']),
      'forbidden',
    );
    await expect(
      admin.setRoles(user('platform', ['global_admin']), 'acme', ada.id, ['global_admin']),
    ).resolves.toMatchObject({ roles: ['global_admin'] });
  });

  it('lets only a global_admin take global_admin away', async () => {
    const { admin, root } = await setUp();
    await expectDomainError(
      admin.setRoles(user('acme', ['tenant_admin']), 'acme', root.id, ['user']),
      'forbidden',
    );
  });

  it('counts a service token with admin.* as a platform administrator, and one with users.write not', async () => {
    const { admin, ada } = await setUp();
    await expectDomainError(
      admin.setRoles(service(['users.write']), 'acme', ada.id, ['global_admin']),
      'forbidden',
    );
    await expect(
      admin.setRoles(service(['admin.*']), 'acme', ada.id, ['global_admin']),
    ).resolves.toBeDefined();
    expect(isPlatformAdmin(service(['admin.*']))).toBe(true);
  });

  it('never lets a user who is not a platform administrator reach into another tenant', async () => {
    const { admin, carol } = await setUp();
    const error = await admin.list(user('acme', ['tenant_admin']), 'globex').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    await expectDomainError(admin.get(user('acme', ['tenant_admin']), 'globex', carol.id), 'forbidden');
    await expect(admin.list(user('platform', ['global_admin']), 'globex')).resolves.toHaveLength(1);
  });
});
