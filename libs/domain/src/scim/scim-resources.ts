import type { ProvisionedUserInput, User } from '../users/user';
import type { Group, GroupInput } from './group';
import { readAttributes, valueAt } from './scim-attributes';
import { scimErrors } from './scim-error';
import {
  ENTERPRISE_USER_SCHEMA,
  GROUP_ROLES_SCHEMA,
  GROUP_SCHEMA,
  SCIM_SCHEMAS,
  type SchemaDefinition,
  USER_SCHEMA,
} from './scim-schemas';

type Json = Record<string, unknown>;

export const USER_SCHEMAS: readonly SchemaDefinition[] = [USER_SCHEMA, ENTERPRISE_USER_SCHEMA];
export const GROUP_SCHEMAS: readonly SchemaDefinition[] = [GROUP_SCHEMA, GROUP_ROLES_SCHEMA];

/** Attributes kept in their own columns, not in the stored profile. */
const USER_COLUMNS = ['id', 'externalId', 'userName', 'active', 'groups'];

/**
 * The longest userName or externalId of a User, in characters. Both are indexed, and a Postgres
 * index entry holds at most ~2,700 bytes where SQLite has no bound: 256 characters (1 KiB of
 * UTF-8 at most) keep every value well under it, so both databases store what the edge accepts.
 */
export const SCIM_KEY_MAX_LENGTH = 256;

/** `W/"3"`: the resource version as an ETag (RFC 7644 section 3.14). */
export const etagOf = (version: number): string => `W/"${version}"`;

/** Where resources live, for `meta.location` and `$ref`: `https://auth.example.com/scim/v2`. */
export interface ScimLocation {
  baseUrl: string;
}

function meta(
  resourceType: 'User' | 'Group',
  id: string,
  resource: { version: number; createdAt: Date; updatedAt: Date },
  at: ScimLocation,
) {
  return {
    resourceType,
    created: resource.createdAt.toISOString(),
    lastModified: resource.updatedAt.toISOString(),
    version: etagOf(resource.version),
    location: `${at.baseUrl}/${resourceType}s/${id}`,
  };
}

/**
 * A user as a SCIM User. A user only the login flow knows has no userName of its own: it shows
 * its email (else its subject at the provider), and its name and email as the profile.
 */
export function toUserResource(user: User, groups: readonly Group[], at: ScimLocation): Json {
  const profile = user.profile ?? {
    ...(user.name !== null && { displayName: user.name }),
    ...(user.email !== null && { emails: [{ value: user.email, primary: true }] }),
  };
  const { [SCIM_SCHEMAS.enterpriseUser]: enterprise, ...core } = profile;
  return {
    schemas:
      enterprise === undefined ? [SCIM_SCHEMAS.user] : [SCIM_SCHEMAS.user, SCIM_SCHEMAS.enterpriseUser],
    id: user.id,
    ...(user.externalId !== null && { externalId: user.externalId }),
    userName: user.userName ?? user.email ?? user.subject ?? user.id,
    ...core,
    active: user.active,
    ...(groups.length > 0 && {
      groups: groups.map((g) => ({
        value: g.id,
        $ref: `${at.baseUrl}/Groups/${g.id}`,
        display: g.displayName,
        type: 'direct',
      })),
    }),
    ...(enterprise !== undefined && { [SCIM_SCHEMAS.enterpriseUser]: enterprise }),
    meta: meta('User', user.id, user, at),
  };
}

/** A User body (POST, PUT, or the result of a PATCH) read into what the store keeps. */
export function readUserResource(body: unknown): Omit<ProvisionedUserInput, 'tenant'> {
  requireSchema(body, SCIM_SCHEMAS.user);
  const resource = readAttributes(body, USER_SCHEMA, [ENTERPRISE_USER_SCHEMA]);
  const userName = resource.userName;
  if (typeof userName !== 'string' || userName.trim() === '')
    throw scimErrors.invalidValue('userName is required');
  const externalId = typeof resource.externalId === 'string' ? resource.externalId : null;
  for (const [path, value] of [
    ['userName', userName.trim()],
    ['externalId', externalId],
  ] as const) {
    if (value !== null && [...value].length > SCIM_KEY_MAX_LENGTH)
      throw scimErrors.invalidValue(`${path} must be at most ${SCIM_KEY_MAX_LENGTH} characters`);
  }
  const profile = Object.fromEntries(Object.entries(resource).filter(([key]) => !USER_COLUMNS.includes(key)));
  return {
    userName: userName.trim(),
    externalId,
    active: resource.active !== false,
    email: stringAt(resource, ['emails', 'value']),
    name:
      stringAt(resource, ['displayName']) ??
      stringAt(resource, ['name', 'formatted']) ??
      (joined(stringAt(resource, ['name', 'givenName']), stringAt(resource, ['name', 'familyName'])) || null),
    profile,
  };
}

/** A group as a SCIM Group; `display` of each member is its userName. */
export function toGroupResource(group: Group, members: ReadonlyMap<string, User>, at: ScimLocation): Json {
  return {
    schemas: group.roles.length > 0 ? [SCIM_SCHEMAS.group, SCIM_SCHEMAS.groupRoles] : [SCIM_SCHEMAS.group],
    id: group.id,
    ...(group.externalId !== null && { externalId: group.externalId }),
    displayName: group.displayName,
    members: group.members.map((id) => {
      const user = members.get(id);
      return {
        value: id,
        $ref: `${at.baseUrl}/Users/${id}`,
        type: 'User',
        ...(user && { display: user.userName ?? user.email ?? user.id }),
      };
    }),
    ...(group.roles.length > 0 && { [SCIM_SCHEMAS.groupRoles]: { roles: group.roles } }),
    meta: meta('Group', group.id, group, at),
  };
}

/** A Group body read into what the store keeps; the members and roles are checked by the caller. */
export function readGroupResource(body: unknown): GroupInput {
  requireSchema(body, SCIM_SCHEMAS.group);
  const resource = readAttributes(body, GROUP_SCHEMA, [GROUP_ROLES_SCHEMA]);
  const displayName = resource.displayName;
  if (typeof displayName !== 'string' || displayName.trim() === '') {
    throw scimErrors.invalidValue('displayName is required');
  }
  const members = (resource.members as Json[] | undefined) ?? [];
  const ids = members.map((m) => m.value);
  if (ids.some((id) => typeof id !== 'string' || id === '')) {
    throw scimErrors.invalidValue('every member needs the id of a User as its value');
  }
  const roles =
    ((resource[SCIM_SCHEMAS.groupRoles] as Json | undefined)?.roles as string[] | undefined) ?? [];
  return {
    displayName: displayName.trim(),
    externalId: typeof resource.externalId === 'string' ? resource.externalId : null,
    members: [...new Set(ids as string[])].sort(),
    roles: [...new Set(roles)].sort(),
  };
}

function requireSchema(body: unknown, schema: string): void {
  const schemas = (body as Json | null)?.schemas;
  if (
    !Array.isArray(schemas) ||
    !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === schema.toLowerCase())
  ) {
    throw scimErrors.invalidSyntax(`schemas must include ${schema}`);
  }
}

function stringAt(resource: Json, path: string[]): string | null {
  const value = valueAt(resource, path);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

const joined = (...parts: Array<string | null>) => parts.filter((p) => p !== null).join(' ');
