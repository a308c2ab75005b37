import { ScimError } from './scim-error';
import { listResponse, project, readListQuery, userNameLookup } from './scim-query';
import { USER_SCHEMAS } from './scim-resources';
import { SCIM_SCHEMAS } from './scim-schemas';

const user = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [SCIM_SCHEMAS.user],
  id: `id-${userName}`,
  userName,
  ...extra,
});

const RESOURCES = [
  user('bjensen', {
    externalId: 'Ext-1',
    title: 'Guide',
    emails: [{ value: 'BJ@Example.com', type: 'work' }],
  }),
  user('jsmith', { name: { familyName: 'Smith' }, emails: [{ value: 'js@example.org', type: 'home' }] }),
  user('adoe', { [SCIM_SCHEMAS.enterpriseUser]: { department: 'Sales' } }),
];

const names = (query: Record<string, unknown>) =>
  (listResponse(RESOURCES, readListQuery(query), USER_SCHEMAS).Resources as Array<{ userName: string }>).map(
    (r) => r.userName,
  );

describe(readListQuery.name, () => {
  it('defaults to the first 200 resources, ascending', () => {
    expect(readListQuery({})).toEqual({
      startIndex: 1,
      count: 200,
      sortOrder: 'ascending',
      projection: { attributes: undefined, excludedAttributes: undefined },
    });
  });

  it('reads startIndex below 1 as 1, count below 0 as 0 and above the maximum as the maximum', () => {
    expect(readListQuery({ startIndex: '-4', count: '-1' })).toMatchObject({ startIndex: 1, count: 0 });
    expect(readListQuery({ count: '5000' })).toMatchObject({ count: 200 });
  });

  it.each([
    [{ count: 'ten' }, 'invalidValue'],
    [{ startIndex: '1.5' }, 'invalidValue'],
    [{ sortOrder: 'up' }, 'invalidValue'],
    [{ filter: 'userName eq' }, 'invalidFilter'],
    [{ filter: 'userName foo "x"' }, 'invalidFilter'],
  ])('refuses %j with %s', (query, scimType) => {
    expect(() => readListQuery(query)).toThrow(expect.objectContaining({ status: 400, scimType }));
    expect(() => readListQuery(query)).toThrow(ScimError);
  });
});

describe(listResponse.name, () => {
  it('compares values case-insensitively unless the attribute is caseExact', () => {
    expect(names({ filter: 'userName eq "BJENSEN"' })).toEqual(['bjensen']);
    expect(names({ filter: 'emails.value eq "bj@example.com"' })).toEqual(['bjensen']);
    expect(names({ filter: 'externalId eq "ext-1"' })).toEqual([]);
    expect(names({ filter: 'externalId eq "Ext-1"' })).toEqual(['bjensen']);
  });

  it('reads a complex attribute without a sub-attribute as its value', () => {
    expect(names({ filter: 'emails co "example.org"' })).toEqual(['jsmith']);
  });

  it('evaluates value filters, not, grouping and extension attributes', () => {
    expect(names({ filter: 'emails[type eq "work" and value ew ".com"]' })).toEqual(['bjensen']);
    expect(names({ filter: 'not (title pr) and not (name pr)' })).toEqual(['adoe']);
    expect(names({ filter: `${SCIM_SCHEMAS.enterpriseUser}:department eq "sales"` })).toEqual(['adoe']);
  });

  it('sorts with unassigned values last in either order, and pages', () => {
    expect(names({ sortBy: 'title' })).toEqual(['bjensen', 'jsmith', 'adoe']);
    expect(names({ sortBy: 'userName', sortOrder: 'descending' })).toEqual(['jsmith', 'bjensen', 'adoe']);
    const page = listResponse(
      RESOURCES,
      readListQuery({ sortBy: 'userName', startIndex: '2', count: '1' }),
      USER_SCHEMAS,
    );
    expect(page).toMatchObject({
      totalResults: 3,
      startIndex: 2,
      itemsPerPage: 1,
      Resources: [{ userName: 'bjensen' }],
    });
  });
});

describe(project.name, () => {
  it('keeps id and schemas whatever is asked, and sub-attributes of multi-valued ones', () => {
    expect(project(RESOURCES[0], { attributes: ['emails.value'] }, USER_SCHEMAS)).toEqual({
      schemas: [SCIM_SCHEMAS.user],
      id: 'id-bjensen',
      emails: [{ value: 'BJ@Example.com' }],
    });
    expect(project(RESOURCES[0], { excludedAttributes: ['id', 'emails', 'TITLE'] }, USER_SCHEMAS)).toEqual({
      schemas: [SCIM_SCHEMAS.user],
      id: 'id-bjensen',
      userName: 'bjensen',
      externalId: 'Ext-1',
    });
  });
});

describe(userNameLookup.name, () => {
  it('recognises the identity providers’ lookup, and nothing broader', () => {
    expect(userNameLookup(readListQuery({ filter: 'userName eq "a@b"' }).filter)).toBe('a@b');
    expect(userNameLookup(readListQuery({ filter: `${SCIM_SCHEMAS.user}:userName eq "a@b"` }).filter)).toBe(
      'a@b',
    );
    expect(userNameLookup(readListQuery({ filter: 'userName co "a"' }).filter)).toBeUndefined();
    expect(userNameLookup(readListQuery({ filter: 'userName eq "a" or title pr' }).filter)).toBeUndefined();
  });
});
