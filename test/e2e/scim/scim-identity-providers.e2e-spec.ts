import type * as oauth from 'oauth4webapi';
import { decodeJwt } from 'jose';
import { identityOf, signIn } from '../../support/internal-consent';
import { adminToken, discover, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { patchOp, provisioningToken, SCIM, scimClient, type ScimCall } from '../../support/scim';

/**
 * The request sequences the identity providers' own provisioning documentation shows, end to
 * end over HTTP: Okta ("SCIM 2.0 provisioning", developer.okta.com) and Microsoft Entra ID
 * ("Tutorial: Develop and plan provisioning for a SCIM endpoint"); then who may provision what.
 */
/**
 * Its own tenants, apps and users on the shared platform (in the default tenant only a user of a
 * name of its own, which it never lists).
 */
describe('SCIM provisioning as identity providers drive it', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let admin: string;

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    admin = await adminToken(as, platform);
  });

  describe('Okta', () => {
    let okta: ScimCall;

    beforeAll(async () => {
      okta = scimClient(
        platform.baseUrl,
        await provisioningToken(platform, as, admin, 'okta-connector', 'okta-tenant'),
      );
    });

    it('checks for the user, creates it, reads it, deactivates it and reactivates it', async () => {
      // 1. Is the user there? Okta asks by userName, with its paging parameters.
      const lookup = await okta(
        'GET',
        `/Users?filter=${encodeURIComponent('userName eq "dade.murphy@example.com"')}&startIndex=1&count=100`,
      );
      expect(lookup.status).toBe(200);
      expect(lookup.body).toEqual({
        schemas: [SCIM.listResponse],
        totalResults: 0,
        startIndex: 1,
        itemsPerPage: 0,
        Resources: [],
      });

      // 2. Create, as Okta sends it (password included: never stored, no password login here).
      const created = await okta('POST', '/Users', {
        schemas: [SCIM.user],
        userName: 'dade.murphy@example.com',
        name: { givenName: 'Dade', familyName: 'Murphy' },
        emails: [{ primary: true, value: 'dade.murphy@example.com', type: 'work' }],
        displayName: 'Dade Murphy',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq',
        active: true,
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect(created.body).not.toHaveProperty('password');
      expect(JSON.stringify(created.body)).not.toContain('1mz050nq');

      // 3. The lookup now finds it, whatever the case Okta sends.
      const found = await okta(
        'GET',
        `/Users?filter=${encodeURIComponent('userName eq "Dade.Murphy@example.com"')}`,
      );
      expect(found.body).toMatchObject({
        totalResults: 1,
        Resources: [{ id, userName: 'dade.murphy@example.com' }],
      });
      expect((await okta('GET', `/Users/${id}`)).body).toMatchObject({
        id,
        active: true,
        externalId: '00ujl29u0le5T6Aj10h7',
      });

      // 4. Deactivate: Okta's PATCH replaces active with a value object.
      const deactivated = await okta(
        'PATCH',
        `/Users/${id}`,
        patchOp({ op: 'replace', value: { active: false } }),
      );
      expect(deactivated.status).toBe(200);
      expect(deactivated.body.active).toBe(false);

      // 5. Reactivate, and a profile update by PUT of the whole user.
      const reactivated = await okta(
        'PATCH',
        `/Users/${id}`,
        patchOp({ op: 'replace', value: { active: true } }),
      );
      expect(reactivated.body.active).toBe(true);
      const put = await okta('PUT', `/Users/${id}`, {
        schemas: [SCIM.user],
        id,
        userName: 'dade.murphy@example.com',
        name: { givenName: 'Dade', familyName: 'Murphy-Burns' },
        emails: [{ primary: true, value: 'dade.murphy@example.com', type: 'work' }],
        active: true,
      });
      expect(put.status).toBe(200);
      expect(put.body.name).toEqual({ givenName: 'Dade', familyName: 'Murphy-Burns' });
    });

    it('pushes a group, adds and removes members, renames it and deletes it', async () => {
      const members: string[] = [];
      for (const name of ['kate', 'paul']) {
        const response = await okta('POST', '/Users', {
          schemas: [SCIM.user],
          userName: `${name}@example.com`,
          active: true,
        });
        members.push(response.body.id);
      }

      const group = await okta('POST', '/Groups', {
        schemas: [SCIM.group],
        displayName: 'Test SCIMv2',
        members: [],
      });
      expect(group.status).toBe(201);
      const id = group.body.id as string;
      expect(group.headers.get('location')).toBe(`${platform.baseUrl}/scim/v2/Groups/${id}`);

      const added = await okta(
        'PATCH',
        `/Groups/${id}`,
        patchOp({
          op: 'add',
          path: 'members',
          value: members.map((value, i) => ({ value, display: `member ${i}` })),
        }),
      );
      expect(added.status).toBe(200);
      expect(added.body.members.map((m: { value: string }) => m.value).sort()).toEqual([...members].sort());
      expect(added.body.members[0]).toMatchObject({
        type: 'User',
        $ref: expect.stringContaining('/scim/v2/Users/'),
      });

      const removed = await okta(
        'PATCH',
        `/Groups/${id}`,
        patchOp({ op: 'remove', path: `members[value eq "${members[0]}"]` }),
      );
      expect(removed.body.members.map((m: { value: string }) => m.value)).toEqual([members[1]]);

      // The user shows its groups (read-only there).
      expect((await okta('GET', `/Users/${members[1]}`)).body.groups).toEqual([
        {
          value: id,
          $ref: `${platform.baseUrl}/scim/v2/Groups/${id}`,
          display: 'Test SCIMv2',
          type: 'direct',
        },
      ]);

      const renamed = await okta(
        'PATCH',
        `/Groups/${id}`,
        patchOp({ op: 'replace', value: { id, displayName: 'Test SCIMv2 renamed' } }),
      );
      expect(renamed.body.displayName).toBe('Test SCIMv2 renamed');
      const listed = await okta(
        'GET',
        `/Groups?filter=${encodeURIComponent('displayName eq "test scimv2 renamed"')}`,
      );
      expect(listed.body).toMatchObject({ totalResults: 1, Resources: [{ id }] });

      expect((await okta('DELETE', `/Groups/${id}`)).status).toBe(204);
      expect((await okta('GET', `/Groups/${id}`)).status).toBe(404);
      expect((await okta('GET', `/Users/${members[1]}`)).body).not.toHaveProperty('groups');
    });
  });

  describe('Microsoft Entra ID', () => {
    let entra: ScimCall;

    beforeAll(async () => {
      entra = scimClient(
        platform.baseUrl,
        await provisioningToken(platform, as, admin, 'entra-connector', 'entra-tenant'),
      );
    });

    it('queries, creates with the enterprise extension, patches with its own casing and strings, and deletes', async () => {
      const query = await entra(
        'GET',
        `/Users?filter=${encodeURIComponent('userName eq "Test_User_dfeef4c5-5681-4387-b016-bdf221e82081"')}`,
      );
      expect(query.body).toMatchObject({ totalResults: 0, Resources: [] });

      const created = await entra('POST', '/Users', {
        schemas: [SCIM.user, SCIM.enterprise],
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
        userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1',
        active: true,
        emails: [
          {
            primary: true,
            type: 'work',
            value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com',
          },
        ],
        meta: { resourceType: 'User' },
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
        roles: [],
        [SCIM.enterprise]: { employeeNumber: 'ee5f8bf4', department: 'Sales', manager: { value: 'mgr-1' } },
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect(created.body[SCIM.enterprise]).toEqual({
        employeeNumber: 'ee5f8bf4',
        department: 'Sales',
        manager: { value: 'mgr-1' },
      });

      // Entra ID capitalises op, addresses values by filter, and sends booleans as strings.
      const patched = await entra(
        'PATCH',
        `/Users/${id}`,
        patchOp(
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
          { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
          { op: 'Add', path: `${SCIM.enterprise}:department`, value: 'Marketing' },
          { op: 'Replace', path: 'active', value: 'False' },
        ),
      );
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        active: false,
        emails: [{ primary: true, type: 'work', value: 'updatedEmail@microsoft.com' }],
        name: { familyName: 'updatedFamilyName' },
        [SCIM.enterprise]: { department: 'Marketing' },
      });
      const reactivated = await entra(
        'PATCH',
        `/Users/${id}`,
        patchOp({ op: 'Replace', path: 'active', value: 'True' }),
      );
      expect(reactivated.body.active).toBe(true);

      // Entra ID's test for the error path: a duplicate is 409, a missing user 404.
      const duplicate = await entra('POST', '/Users', {
        schemas: [SCIM.user],
        userName: created.body.userName.toUpperCase(),
      });
      expect(duplicate.status).toBe(409);
      expect((await entra('GET', '/Users/5171a35d82074e068ce2')).status).toBe(404);

      expect((await entra('DELETE', `/Users/${id}`)).status).toBe(204);
      expect((await entra('DELETE', `/Users/${id}`)).status).toBe(404);
    });

    it('manages group membership with Add and Remove by value, and excludes members on request', async () => {
      const user = await entra('POST', '/Users', { schemas: [SCIM.user], userName: 'member@entra.example' });
      const group = await entra('POST', '/Groups', {
        schemas: [SCIM.group],
        externalId: '8aa1a0c0',
        displayName: 'displayName',
      });
      const id = group.body.id as string;

      const found = await entra(
        'GET',
        `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`,
      );
      expect(found.body.Resources).toEqual([expect.not.objectContaining({ members: expect.anything() })]);

      const added = await entra(
        'PATCH',
        `/Groups/${id}`,
        patchOp({ op: 'Add', path: 'members', value: [{ value: user.body.id }] }),
      );
      expect(added.body.members).toEqual([
        expect.objectContaining({ value: user.body.id, display: 'member@entra.example' }),
      ]);

      const removed = await entra(
        'PATCH',
        `/Groups/${id}`,
        patchOp({ op: 'Remove', path: 'members', value: [{ value: user.body.id }] }),
      );
      expect(removed.body.members).toEqual([]);

      const stranger = await entra(
        'PATCH',
        `/Groups/${id}`,
        patchOp({ op: 'Add', path: 'members', value: [{ value: 'not-a-user' }] }),
      );
      expect(stranger.status).toBe(400);
      expect(stranger.body).toMatchObject({
        scimType: 'invalidValue',
        detail: 'not users of this tenant: not-a-user',
      });
    });
  });

  describe('who provisions what', () => {
    let app: RegisteredApp;

    beforeAll(async () => {
      app = await registerApp(platform, admin, {
        client_id: 'idp-portal',
        app_type: 'web',
        declared_scopes: ['scim.read', 'scim.write', 'users.read'],
        redirect_uris: ['http://127.0.0.1:9/scim-idp/callback'],
      });
    });

    it('refuses without a token (401 with the challenge) and without the scope (403), as SCIM errors', async () => {
      const anonymous = await scimClient(platform.baseUrl, undefined)('GET', '/Users');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(anonymous.body).toMatchObject({ schemas: [SCIM.error], status: '401' });

      const readOnly = scimClient(
        platform.baseUrl,
        await provisioningToken(platform, as, admin, 'idp-read-only', 'okta-tenant', 'scim.read'),
      );
      expect((await readOnly('GET', '/Users')).status).toBe(200);
      const write = await readOnly('POST', '/Users', { schemas: [SCIM.user], userName: 'nope@example.com' });
      expect(write.status).toBe(403);
      expect(write.body).toMatchObject({ schemas: [SCIM.error], status: '403' });
    });

    it('keeps a bound app in its tenant: another tenant’s users do not exist for it, and it may not name another', async () => {
      const acme = scimClient(
        platform.baseUrl,
        await provisioningToken(platform, as, admin, 'acme-idp', 'iso-acme'),
      );
      const globex = scimClient(
        platform.baseUrl,
        await provisioningToken(platform, as, admin, 'globex-idp', 'iso-globex'),
      );
      const theirs = await globex('POST', '/Users', { schemas: [SCIM.user], userName: 'shared@example.com' });

      expect((await acme('GET', `/Users/${theirs.body.id}`)).status).toBe(404);
      expect(
        (
          await acme(
            'PATCH',
            `/Users/${theirs.body.id}`,
            patchOp({ op: 'replace', path: 'active', value: false }),
          )
        ).status,
      ).toBe(404);
      expect((await acme('DELETE', `/Users/${theirs.body.id}`)).status).toBe(404);
      expect((await acme('GET', '/Users')).body.totalResults).toBe(0);
      // The same userName is free in another tenant.
      expect(
        (await acme('POST', '/Users', { schemas: [SCIM.user], userName: 'shared@example.com' })).status,
      ).toBe(201);

      const reaching = await acme('GET', '/Users', undefined, { 'x-platform-tenant': 'iso-globex' });
      expect(reaching.status).toBe(403);
      expect(reaching.body).toMatchObject({ schemas: [SCIM.error], status: '403' });
    });

    it('lets a platform admin provision the default tenant, or the one it names', async () => {
      const platformAdmin = scimClient(platform.baseUrl, admin);
      const created = await platformAdmin('POST', '/Users', {
        schemas: [SCIM.user],
        userName: 'idp-default@example.com',
      });
      expect(created.status).toBe(201);

      const named = await platformAdmin('GET', '/Users', undefined, { 'x-platform-tenant': 'iso-globex' });
      expect(named.body.Resources.map((u: { userName: string }) => u.userName)).toEqual([
        'shared@example.com',
      ]);
      expect(
        (
          await platformAdmin('GET', `/Users/${created.body.id}`, undefined, {
            'x-platform-tenant': 'iso-globex',
          })
        ).status,
      ).toBe(404);
    });

    it('lets a tenant_admin provision its own tenant with a user token, and nobody less', async () => {
      const tenantAdmin = (
        await signIn(platform, app, { identity: identityOf('idp-root', 'scim-staff', ['tenant_admin']) })
      ).tokens.access_token;
      const member = (
        await signIn(platform, app, { identity: identityOf('idp-member', 'scim-staff', ['user']) })
      ).tokens.access_token;

      const byAdmin = scimClient(platform.baseUrl, tenantAdmin);
      const created = await byAdmin('POST', '/Users', {
        schemas: [SCIM.user],
        userName: 'hire@staff.example',
      });
      expect(created.status).toBe(201);
      expect(
        (await byAdmin('GET', '/Users')).body.Resources.map((u: { userName: string }) => u.userName).sort(),
      ).toEqual(
        [
          'hire@staff.example',
          'idp-member@scim-staff.example.test',
          'idp-root@scim-staff.example.test',
        ].sort(),
      );
      expect((await byAdmin('GET', '/Users', undefined, { 'x-platform-tenant': 'iso-acme' })).status).toBe(
        403,
      );

      expect((await scimClient(platform.baseUrl, member)('GET', '/Users')).status).toBe(403);
    });

    it('grants a group’s roles to its members from their next token on; only a platform admin grants global_admin', async () => {
      const tenantAdmin = (
        await signIn(platform, app, { identity: identityOf('idp-lead', 'roles-tenant', ['tenant_admin']) })
      ).tokens.access_token;
      const { user, tokens } = await signIn(platform, app, {
        identity: identityOf('idp-dev', 'roles-tenant', ['viewer']),
      });
      expect(decodeJwt(tokens.access_token).roles).toEqual(['viewer']);
      const scim = scimClient(platform.baseUrl, tenantAdmin);

      const group = await scim('POST', '/Groups', {
        schemas: [SCIM.group, SCIM.groupRoles],
        displayName: 'Tenant admins',
        members: [{ value: user.id }],
        [SCIM.groupRoles]: { roles: ['tenant_admin'] },
      });
      expect(group.status).toBe(201);
      expect(group.body[SCIM.groupRoles]).toEqual({ roles: ['tenant_admin'] });

      const next = (
        await signIn(platform, app, { identity: identityOf('idp-dev', 'roles-tenant', ['viewer']) })
      ).tokens.access_token;
      expect(decodeJwt(next).roles).toEqual(['viewer', 'tenant_admin']);

      const escalation = await scim(
        'PATCH',
        `/Groups/${group.body.id}`,
        patchOp({ op: 'replace', path: `${SCIM.groupRoles}:roles`, value: ['global_admin'] }),
      );
      expect(escalation.status).toBe(403);
      const unknownRole = await scim(
        'PATCH',
        `/Groups/${group.body.id}`,
        patchOp({ op: 'replace', path: `${SCIM.groupRoles}:roles`, value: ['wizard'] }),
      );
      expect(unknownRole.body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    });
  });
});
