/** The URNs of RFC 7643 and RFC 7644, and the platform's own extension for group roles. */
export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  groupRoles: 'urn:platform:params:scim:schemas:extension:roles:2.0:Group',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** RFC 7643 section 7: how one attribute is typed and treated. */
export interface AttributeDefinition {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime' | 'integer';
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'default' | 'request' | 'never';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: AttributeDefinition[];
  referenceTypes?: string[];
  canonicalValues?: string[];
}

export interface SchemaDefinition {
  id: string;
  name: string;
  description: string;
  attributes: AttributeDefinition[];
}

type Options = Partial<Omit<AttributeDefinition, 'name' | 'type' | 'description' | 'subAttributes'>>;

const attribute = (
  name: string,
  type: AttributeDefinition['type'],
  description: string,
  options: Options = {},
  subAttributes?: AttributeDefinition[],
): AttributeDefinition => ({
  name,
  type,
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...options,
  ...(subAttributes && { subAttributes }),
});

const text = (name: string, description: string, options?: Options) =>
  attribute(name, 'string', description, options);

/** `value`, `display`, `type`, `primary`: the shape of emails and phone numbers. */
const plural = (name: string, description: string, types: string[]) =>
  attribute(name, 'complex', description, { multiValued: true }, [
    text('value', `The ${name} value.`),
    text('display', 'A human-readable name, for display only.'),
    text('type', 'A label for the value.', { canonicalValues: types }),
    attribute('primary', 'boolean', 'The preferred value; at most one is true.'),
  ]);

const reference = (description: string, referenceTypes: string[], options: Options = {}) =>
  attribute('$ref', 'reference', description, { referenceTypes, ...options });

/** The attributes common to every resource (RFC 7643 section 3.1), as the Schemas endpoint lists them. */
const COMMON: AttributeDefinition[] = [
  text('id', 'The platform’s identifier of the resource.', {
    caseExact: true,
    mutability: 'readOnly',
    returned: 'always',
    uniqueness: 'server',
  }),
  text('externalId', 'The provisioning client’s identifier of the resource.', { caseExact: true }),
];

export const USER_SCHEMA: SchemaDefinition = {
  id: SCIM_SCHEMAS.user,
  name: 'User',
  description: 'User Account',
  attributes: [
    ...COMMON,
    text('userName', 'Unique identifier for the user in its tenant, compared case-insensitively.', {
      required: true,
      uniqueness: 'server',
    }),
    attribute('name', 'complex', 'The components of the user’s real name.', {}, [
      text('formatted', 'The full name, formatted for display.'),
      text('familyName', 'The family name.'),
      text('givenName', 'The given name.'),
      text('middleName', 'The middle name(s).'),
      text('honorificPrefix', 'The honorific prefix(es), e.g. Ms.'),
      text('honorificSuffix', 'The honorific suffix(es), e.g. III.'),
    ]),
    text('displayName', 'The name of the user, suitable for display.'),
    text('nickName', 'The casual way to address the user.'),
    attribute('profileUrl', 'reference', 'A URI of the user’s online profile.', {
      referenceTypes: ['external'],
    }),
    text('title', 'The user’s title, e.g. Vice President.'),
    text('userType', 'The relationship between the organization and the user.'),
    text('preferredLanguage', 'The user’s preferred written or spoken language.'),
    text('locale', 'The user’s default location, for localization.'),
    text('timezone', 'The user’s time zone, in IANA Time Zone database format.'),
    attribute(
      'active',
      'boolean',
      'Whether the user may log in; false revokes every session, refresh token and access token of the user at once.',
    ),
    plural('emails', 'Email addresses for the user.', ['work', 'home', 'other']),
    plural('phoneNumbers', 'Phone numbers for the user.', [
      'work',
      'home',
      'mobile',
      'fax',
      'pager',
      'other',
    ]),
    attribute('addresses', 'complex', 'Physical mailing addresses for the user.', { multiValued: true }, [
      text('formatted', 'The full mailing address, formatted for display.'),
      text('streetAddress', 'The full street address component.'),
      text('locality', 'The city or locality component.'),
      text('region', 'The state or region component.'),
      text('postalCode', 'The zip code or postal code component.'),
      text('country', 'The country name component.'),
      text('type', 'A label for the address.', { canonicalValues: ['work', 'home', 'other'] }),
      attribute('primary', 'boolean', 'The preferred mailing address.'),
    ]),
    attribute(
      'groups',
      'complex',
      'The groups the user belongs to; changed through the Group resource only.',
      { multiValued: true, mutability: 'readOnly' },
      [
        text('value', 'The id of the group.', { mutability: 'readOnly' }),
        reference('The URI of the group.', ['Group'], { mutability: 'readOnly' }),
        text('display', 'The group’s displayName.', { mutability: 'readOnly' }),
        text('type', 'How the user belongs to the group: always direct.', {
          mutability: 'readOnly',
          canonicalValues: ['direct'],
        }),
      ],
    ),
  ],
};

export const ENTERPRISE_USER_SCHEMA: SchemaDefinition = {
  id: SCIM_SCHEMAS.enterpriseUser,
  name: 'EnterpriseUser',
  description: 'Enterprise User',
  attributes: [
    text('employeeNumber', 'A string identifier of the user in the organization.'),
    text('costCenter', 'The name of a cost center.'),
    text('organization', 'The name of an organization.'),
    text('division', 'The name of a division.'),
    text('department', 'The name of a department.'),
    attribute('manager', 'complex', 'The user’s manager.', {}, [
      text('value', 'The id of the manager’s User resource.'),
      reference('The URI of the manager’s User resource.', ['User']),
      text('displayName', 'The manager’s displayName.', { mutability: 'readOnly' }),
    ]),
  ],
};

export const GROUP_SCHEMA: SchemaDefinition = {
  id: SCIM_SCHEMAS.group,
  name: 'Group',
  description: 'Group',
  attributes: [
    ...COMMON,
    text('displayName', 'A human-readable name for the group.', { required: true }),
    attribute(
      'members',
      'complex',
      'The members of the group: users of the same tenant.',
      { multiValued: true },
      [
        text('value', 'The id of the member’s User resource.', { mutability: 'immutable' }),
        reference('The URI of the member.', ['User'], { mutability: 'immutable' }),
        text('display', 'The member’s displayName.', { mutability: 'readOnly' }),
        text('type', 'The type of the member: User.', { mutability: 'immutable', canonicalValues: ['User'] }),
      ],
    ),
  ],
};

export const GROUP_ROLES_SCHEMA: SchemaDefinition = {
  id: SCIM_SCHEMAS.groupRoles,
  name: 'PlatformGroupRoles',
  description: 'Platform roles the group grants to every member in its tenant (docs/scim.md)',
  attributes: [
    text(
      'roles',
      'Names of the role bundle (tenant_admin, user, viewer; global_admin by a platform admin only).',
      {
        multiValued: true,
        caseExact: true,
      },
    ),
  ],
};

export const SCIM_SCHEMA_DEFINITIONS = [
  USER_SCHEMA,
  ENTERPRISE_USER_SCHEMA,
  GROUP_SCHEMA,
  GROUP_ROLES_SCHEMA,
];

/** The two resource types (RFC 7643 section 6), with their extensions. */
export const RESOURCE_TYPES = [
  {
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'User Account',
    schema: SCIM_SCHEMAS.user,
    schemaExtensions: [{ schema: SCIM_SCHEMAS.enterpriseUser, required: false }],
  },
  {
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'Group',
    schema: SCIM_SCHEMAS.group,
    schemaExtensions: [{ schema: SCIM_SCHEMAS.groupRoles, required: false }],
  },
] as const;

/** What the ListResponse of a query returns at most (`filter.maxResults`). */
export const SCIM_MAX_RESULTS = 200;

/** RFC 7643 section 5: what this service provider supports. */
export const SERVICE_PROVIDER_CONFIG = {
  documentationUri: 'https://github.com/platform/platform/blob/main/docs/scim.md',
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
  changePassword: { supported: false },
  sort: { supported: true },
  etag: { supported: true },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'OAuth Bearer Token',
      description:
        'An access token of the platform (RFC 6750) with scim.read / scim.write, or a tenant_admin or platform admin token.',
      specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
      primary: true,
    },
  ],
};

/**
 * The definition of `path` (`userName`, `name.givenName`, `emails.value`, or URN-qualified) in
 * `schemas`, the first the core one; undefined when no schema defines it.
 */
export function attributeAt(
  path: string,
  schemas: readonly SchemaDefinition[],
): AttributeDefinition | undefined {
  const { schema, names } = splitPath(path, schemas);
  let attributes: AttributeDefinition[] | undefined = schema?.attributes;
  let found: AttributeDefinition | undefined;
  for (const name of names) {
    found = attributes?.find((a) => a.name.toLowerCase() === name.toLowerCase());
    attributes = found?.subAttributes;
  }
  return found;
}

/** `urn:...:User:name.givenName` -> the User schema and ['name', 'givenName']. */
export function splitPath(
  path: string,
  schemas: readonly SchemaDefinition[],
): { schema: SchemaDefinition | undefined; names: string[] } {
  const qualified = schemas.find((s) => path.toLowerCase().startsWith(`${s.id.toLowerCase()}:`));
  const rest = qualified ? path.slice(qualified.id.length + 1) : path;
  return { schema: qualified ?? schemas[0], names: rest.split('.') };
}
