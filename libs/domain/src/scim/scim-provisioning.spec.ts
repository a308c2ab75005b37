import { AuditTrail } from '../audit/audit-trail';
import {
  aRefreshToken,
  anApplication,
  createTestEngine,
  TEST_START,
  type TestEngine,
} from '../testing/in-memory-stores';
import type { ActingPrincipal } from '../users/user-administration';
import { type ScimCaller, ScimProvisioning } from './scim-provisioning';
import { SCIM_SCHEMAS } from './scim-schemas';

const LIFETIME = 900;
const service = (clientId: string, scopes = ['scim.read', 'scim.write']): ActingPrincipal => ({
  kind: 'service',
  id: clientId,
  clientId,
  tenant: null,
  roles: [],
  scopes,
});
const userOf = (tenant: string, roles: string[]): ActingPrincipal => ({
  kind: 'user',
  id: `user-of-${tenant}`,
  clientId: 'portal',
  tenant,
  roles,
  scopes: ['scim.read', 'scim.write'],
});
const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [SCIM_SCHEMAS.user],
  userName,
  ...extra,
});

describe(ScimProvisioning.name, () => {
  let engine: TestEngine;
  let scim: ScimProvisioning;
  let acme: ScimCaller;

  beforeEach(async () => {
    engine = await createTestEngine();
    scim = new ScimProvisioning(
      engine.stores,
      engine.transactor,
      new AuditTrail(engine.clock),
      engine.clock,
      {
        baseUrl: 'https://auth.example.com/scim/v2',
        accessTokenLifetimeSeconds: LIFETIME,
      },
    );
    acme = { principal: userOf('acme', ['tenant_admin']), tenant: 'acme' };
  });

  describe('callerOf', () => {
    it('provisions an app’s bound tenant, an unbound app’s default tenant, a user’s own tenant', async () => {
      await engine.stores.applications.insertApplication(anApplication({ clientId: 'okta', tenant: 'acme' }));
      await engine.stores.applications.insertApplication(anApplication({ clientId: 'plain' }));

      await expect(scim.callerOf(service('okta'), undefined)).resolves.toMatchObject({ tenant: 'acme' });
      await expect(scim.callerOf(service('plain'), undefined)).resolves.toMatchObject({ tenant: 'default' });
      await expect(scim.callerOf(userOf('globex', ['tenant_admin']), undefined)).resolves.toMatchObject({
        tenant: 'globex',
      });
    });

    it('lets only a platform admin name another tenant', async () => {
      await engine.stores.applications.insertApplication(anApplication({ clientId: 'okta', tenant: 'acme' }));

      await expect(scim.callerOf(service('okta'), 'globex')).rejects.toMatchObject({ status: 403 });
      await expect(scim.callerOf(service('okta'), 'acme')).resolves.toMatchObject({ tenant: 'acme' });
      await expect(scim.callerOf(userOf('acme', ['tenant_admin']), 'globex')).rejects.toMatchObject({
        status: 403,
      });
      await expect(scim.callerOf(userOf('acme', ['global_admin']), 'globex')).resolves.toMatchObject({
        tenant: 'globex',
      });
      await expect(scim.callerOf(service('admin', ['admin.*']), 'globex')).resolves.toMatchObject({
        tenant: 'globex',
      });
    });
  });

  it('creates a user with the default roles and audits it, in the caller’s tenant only', async () => {
    const { resource, etag } = await scim.createUser(acme, newUser('ada@example.com'));

    expect(etag).toBe('W/"1"');
    const stored = await engine.stores.users.findUser(resource.id as string);
    expect(stored).toMatchObject({
      tenant: 'acme',
      roles: ['user'],
      userName: 'ada@example.com',
      issuer: null,
    });
    expect(engine.stores.audit.all()).toContainEqual(
      expect.objectContaining({
        action: 'user.provisioned',
        target: resource.id,
        tenant: 'acme',
        actorId: 'user-of-acme',
      }),
    );
    const globex = { principal: userOf('globex', ['tenant_admin']), tenant: 'globex' };
    await expect(scim.getUser(globex, resource.id as string, {})).rejects.toMatchObject({ status: 404 });
  });

  it('deprovisions in the same transaction: a subject deny-list entry, refresh tokens revoked, sessions ended', async () => {
    const { resource } = await scim.createUser(acme, newUser('leaver@example.com'));
    const id = resource.id as string;
    const { record } = aRefreshToken({ userId: id });
    await engine.stores.refreshTokens.insertRefreshToken(record);
    await engine.stores.sessions.insertSession({
      sessionHash: 'h',
      userId: id,
      createdAt: TEST_START,
      expiresAt: new Date(TEST_START.getTime() + 3_600_000),
      endedAt: null,
    });

    const { resource: patched } = await scim.patchUser(
      acme,
      id,
      { schemas: [SCIM_SCHEMAS.patchOp], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] },
      'W/"1"',
    );

    expect(patched.active).toBe(false);
    const now = engine.clock.now();
    await expect(engine.stores.revocations.listActiveRevocations(now)).resolves.toEqual([
      expect.objectContaining({
        kind: 'subject',
        value: id,
        expiresAt: new Date(now.getTime() + LIFETIME * 1000),
      }),
    ]);
    await expect(engine.stores.refreshTokens.findRefreshToken(record.tokenHash)).resolves.toMatchObject({
      revokedAt: now,
    });
    await expect(engine.stores.sessions.findSession('h')).resolves.toMatchObject({ endedAt: now });
    expect(engine.stores.audit.all()).toContainEqual(
      expect.objectContaining({
        action: 'user.deprovisioned',
        target: id,
        attributes: expect.objectContaining({ refresh_tokens_revoked: '1', sessions_ended: '1' }),
      }),
    );
  });

  it('changes nothing when a write fails half way: a userName taken rolls the whole write back', async () => {
    await scim.createUser(acme, newUser('taken@example.com'));
    const { resource } = await scim.createUser(acme, newUser('other@example.com'));

    await expect(
      scim.replaceUser(
        acme,
        resource.id as string,
        newUser('TAKEN@example.com', { active: false }),
        undefined,
      ),
    ).rejects.toMatchObject({ status: 409, scimType: 'uniqueness' });

    await expect(engine.stores.revocations.listActiveRevocations(engine.clock.now())).resolves.toEqual([]);
    await expect(engine.stores.users.findUser(resource.id as string)).resolves.toMatchObject({
      active: true,
      version: 1,
    });
  });

  it('refuses a stale If-Match with 412, accepts the current one, a list of tags and *', async () => {
    const { resource } = await scim.createUser(acme, newUser('v@example.com'));
    const id = resource.id as string;
    const body = newUser('v@example.com', { title: 'x' });

    await expect(scim.replaceUser(acme, id, body, 'W/"2"')).rejects.toMatchObject({ status: 412 });
    await expect(scim.replaceUser(acme, id, body, '"9", W/"1"')).resolves.toMatchObject({ etag: 'W/"2"' });
    await expect(scim.replaceUser(acme, id, body, '*')).resolves.toMatchObject({ etag: 'W/"3"' });
    await expect(scim.deleteUser(acme, id, 'W/"1"')).rejects.toMatchObject({ status: 412 });
  });

  it('serves Users and Groups, and no other resource type', async () => {
    await scim.operationsOf('Users').create(acme, newUser('u@example.com'));
    await expect(scim.operationsOf('Users').list(acme, {})).resolves.toMatchObject({ totalResults: 1 });
    await expect(scim.operationsOf('Groups').list(acme, {})).resolves.toMatchObject({ totalResults: 0 });
    expect(() => scim.operationsOf('Devices')).toThrow(expect.objectContaining({ status: 404 }));
  });

  describe('groups', () => {
    it('takes members of the tenant only, names of the role bundle only, global_admin from a platform admin only', async () => {
      const { resource: member } = await scim.createUser(acme, newUser('m@example.com'));
      const group = (roles: string[], members: string[]) => ({
        schemas: [SCIM_SCHEMAS.group, SCIM_SCHEMAS.groupRoles],
        displayName: 'G',
        members: members.map((value) => ({ value })),
        [SCIM_SCHEMAS.groupRoles]: { roles },
      });
      const globex = { principal: userOf('globex', ['tenant_admin']), tenant: 'globex' };

      await expect(scim.createGroup(globex, group([], [member.id as string]))).rejects.toMatchObject({
        status: 400,
        scimType: 'invalidValue',
      });
      await expect(scim.createGroup(acme, group(['wizard'], []))).rejects.toMatchObject({
        scimType: 'invalidValue',
      });
      await expect(scim.createGroup(acme, group(['global_admin'], []))).rejects.toMatchObject({
        status: 403,
      });
      const root = { principal: userOf('platform', ['global_admin']), tenant: 'acme' };
      await expect(
        scim.createGroup(root, group(['global_admin'], [member.id as string])),
      ).resolves.toMatchObject({
        etag: 'W/"1"',
      });

      await expect(engine.stores.users.findUser(member.id as string)).resolves.toMatchObject({
        roles: ['user'],
        groupRoles: ['global_admin'],
      });
    });

    it('removes members by value whatever else their entries carry', async () => {
      const { resource: a } = await scim.createUser(acme, newUser('a@example.com'));
      const { resource: b } = await scim.createUser(acme, newUser('b@example.com'));
      const { resource: group } = await scim.createGroup(acme, {
        schemas: [SCIM_SCHEMAS.group],
        displayName: 'G',
        members: [{ value: a.id }, { value: b.id }],
      });

      const { resource } = await scim.patchGroup(
        acme,
        group.id as string,
        {
          schemas: [SCIM_SCHEMAS.patchOp],
          Operations: [{ op: 'Remove', path: 'members', value: [{ value: a.id }] }],
        },
        undefined,
      );

      expect((resource.members as Array<{ value: string }>).map((m) => m.value)).toEqual([b.id]);
    });
  });
});
