import { readGroupResource, readUserResource, SCIM_KEY_MAX_LENGTH } from './scim-resources';
import { SCIM_SCHEMAS } from './scim-schemas';

describe(readUserResource.name, () => {
  it('keeps the profile, takes email and name from it, and reads "False" as false', () => {
    expect(
      readUserResource({
        schemas: [SCIM_SCHEMAS.user],
        userName: ' ada@example.com ',
        externalId: 'okta-1',
        ACTIVE: 'False',
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [
          { value: 'home@example.com', type: 'home' },
          { value: 'ada@example.com', type: 'work', primary: true },
        ],
        password: 'never kept',
        [SCIM_SCHEMAS.enterpriseUser]: {
          department: 'Engines',
          manager: { value: 'm-1', displayName: 'read-only' },
        },
      }),
    ).toEqual({
      userName: 'ada@example.com',
      externalId: 'okta-1',
      active: false,
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      profile: {
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [
          { value: 'home@example.com', type: 'home' },
          { value: 'ada@example.com', type: 'work', primary: true },
        ],
        [SCIM_SCHEMAS.enterpriseUser]: { department: 'Engines', manager: { value: 'm-1' } },
      },
    });
  });

  it.each([
    [{ schemas: [SCIM_SCHEMAS.user] }, 'invalidValue'],
    [{ userName: 'x' }, 'invalidSyntax'],
    [{ schemas: [SCIM_SCHEMAS.user], userName: 'x', name: 'Ada' }, 'invalidValue'],
    [{ schemas: [SCIM_SCHEMAS.user], userName: 'x', active: 'yes' }, 'invalidValue'],
    [{ schemas: [SCIM_SCHEMAS.user], userName: 'x', [SCIM_SCHEMAS.enterpriseUser]: 'Sales' }, 'invalidValue'],
  ])('refuses %j with %s', (body, scimType) => {
    expect(() => readUserResource(body)).toThrow(expect.objectContaining({ status: 400, scimType }));
  });

  it('takes a userName and an externalId up to SCIM_KEY_MAX_LENGTH characters, counted as code points', () => {
    const longest = '𝔸'.repeat(SCIM_KEY_MAX_LENGTH);
    const body = { schemas: [SCIM_SCHEMAS.user], userName: longest, externalId: longest };
    expect(readUserResource(body)).toMatchObject({ userName: longest, externalId: longest });

    for (const member of ['userName', 'externalId'])
      expect(() => readUserResource({ ...body, [member]: `${longest}x` })).toThrow(
        expect.objectContaining({
          status: 400,
          scimType: 'invalidValue',
          message: expect.stringContaining(member),
        }),
      );
  });
});

describe(readGroupResource.name, () => {
  it('reads members by id and the roles of the extension, sorted and without repeats', () => {
    expect(
      readGroupResource({
        schemas: [SCIM_SCHEMAS.group],
        displayName: 'Admins',
        members: [{ value: 'u-2' }, { value: 'u-1', display: 'ignored' }, { value: 'u-2' }],
        [SCIM_SCHEMAS.groupRoles]: { roles: ['viewer', 'tenant_admin'] },
      }),
    ).toEqual({
      displayName: 'Admins',
      externalId: null,
      members: ['u-1', 'u-2'],
      roles: ['tenant_admin', 'viewer'],
    });
  });

  it('refuses a group without displayName and a member without an id', () => {
    expect(() => readGroupResource({ schemas: [SCIM_SCHEMAS.group] })).toThrow(
      expect.objectContaining({ scimType: 'invalidValue' }),
    );
    expect(() =>
      readGroupResource({ schemas: [SCIM_SCHEMAS.group], displayName: 'G', members: [{ display: 'x' }] }),
    ).toThrow(expect.objectContaining({ scimType: 'invalidValue' }));
  });
});
