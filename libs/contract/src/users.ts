import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DEFAULT_IMPERSONATION_MODE, IMPERSONATION_MODES, type ImpersonationMode } from '@platform/domain';
import { Allow, IsIn } from 'class-validator';
import { RolesProperty } from './fields';
import { operation } from './operation-table';

@ApiSchema({
  name: 'User',
  description: 'A user, keyed by (identity provider issuer, subject); the provider is the source of truth.',
})
export class UserDto {
  @ApiProperty() id: string;
  @ApiProperty({ type: 'string', nullable: true }) email: string | null;
  @ApiProperty({ type: 'string', nullable: true }) name: string | null;
  @ApiProperty() tenant: string;
  @RolesProperty() roles: string[];
}

/** Not validated here: the domain judges the roles, so an unknown role is its 400 in its words. */
@ApiSchema({
  name: 'RolesUpdate',
  description: 'The user’s complete new role list. Only a `global_admin` may grant `global_admin`.',
})
export class RolesUpdateDto {
  @RolesProperty()
  @Allow()
  roles: unknown;
}

const USERS_PATH = 'api/v1/tenants/:tenant/users';
const INTERNAL_USERS_PATH = 'internal/v1/tenants/:tenant/users';
const TENANT = { tenant: { example: 'acme' } };
// `id` before `tenant`: the order the published document lists them in.
const USER_OF_TENANT = { id: { description: 'The user id.' }, ...TENANT };
const NO_USER = 'No such user in this tenant (also when the user is in another one).';

/**
 * Tenant user administration. The edge asks the sidecar (users.read / users.write on the route's
 * tenant: the token's scope, then the user's role policies); the control plane keeps the rules
 * that depend on the data (the user's tenant, the role bundle, who grants global_admin).
 */
export const TENANT_USER_OPERATIONS = {
  list: operation({
    id: 'listTenantUsers',
    tag: 'Tenant users',
    summary: 'List the users of a tenant',
    description:
      'Permission `users.read` on `{tenant}`: a user token needs the scope and a role policy allowing it on that tenant (only `global_admin` crosses tenants); a service token needs a scope covering `users.read` (`admin.*` covers every action).',
    method: 'GET',
    path: USERS_PATH,
    internal: INTERNAL_USERS_PATH,
    caller: { kind: 'permission', action: 'users.read', tenantParam: 'tenant' },
    params: TENANT,
    answer: { status: 200, model: [UserDto], description: 'The users.' },
  }),
  get: operation({
    id: 'getTenantUser',
    tag: 'Tenant users',
    summary: 'One user of a tenant',
    description: 'Permission `users.read` on `{tenant}`.',
    method: 'GET',
    path: `${USERS_PATH}/:id`,
    internal: `${INTERNAL_USERS_PATH}/:id`,
    caller: { kind: 'permission', action: 'users.read', tenantParam: 'tenant' },
    params: USER_OF_TENANT,
    answer: { status: 200, model: UserDto, description: 'The user.' },
    refuses: { 404: NO_USER },
  }),
  setRoles: operation({
    id: 'setTenantUserRoles',
    tag: 'Tenant users',
    summary: 'Set a user’s roles',
    description:
      'Permission `users.write` on `{tenant}`. Replaces the roles (at least one, names of the role bundle); they take effect in the user’s tokens at the next refresh. Only a `global_admin` may grant or remove `global_admin` (**403**); an unknown role is **400**.',
    method: 'PUT',
    path: `${USERS_PATH}/:id/roles`,
    internal: `${INTERNAL_USERS_PATH}/:id/roles`,
    caller: { kind: 'permission', action: 'users.write', tenantParam: 'tenant' },
    params: USER_OF_TENANT,
    body: { type: 'json', model: RolesUpdateDto },
    answer: { status: 200, model: UserDto, description: 'The updated user.' },
    refuses: { 404: NO_USER },
  }),
};

const IMPERSONATION_MODE = {
  enum: IMPERSONATION_MODES,
  enumName: 'ImpersonationMode',
  description:
    '`disabled`: no impersonation token for a user of the tenant; `read_only`: impersonation tokens allow only actions ending in `.read`; `full`: the impersonated user’s own rights.',
  example: 'read_only',
};

@ApiSchema({ name: 'ImpersonationPolicyUpdate' })
export class ImpersonationPolicyUpdateDto {
  @ApiProperty(IMPERSONATION_MODE)
  @IsIn(IMPERSONATION_MODES)
  mode: ImpersonationMode;
}

@ApiSchema({
  name: 'ImpersonationPolicy',
  description: `What a tenant allows of impersonation (docs/tokens.md); \`${DEFAULT_IMPERSONATION_MODE}\` until it chooses.`,
})
export class ImpersonationPolicyDto {
  @ApiProperty() tenant: string;
  @ApiProperty(IMPERSONATION_MODE) mode: ImpersonationMode;
}

const POLICY_PATH = 'api/v1/tenants/:tenant/impersonation-policy';
const INTERNAL_POLICY_PATH = 'internal/v1/tenants/:tenant/impersonation-policy';

/**
 * A tenant's impersonation policy, decided as its user administration is (users.read to read it,
 * users.write to change it), applied by the token endpoint to impersonation requests.
 */
export const IMPERSONATION_POLICY_OPERATIONS = {
  get: operation({
    id: 'getImpersonationPolicy',
    tag: 'Tenant users',
    summary: 'The impersonation policy of a tenant',
    description: `Permission \`users.read\` on \`{tenant}\`. A tenant that never set one has \`${DEFAULT_IMPERSONATION_MODE}\`.`,
    method: 'GET',
    path: POLICY_PATH,
    internal: INTERNAL_POLICY_PATH,
    caller: { kind: 'permission', action: 'users.read', tenantParam: 'tenant' },
    params: TENANT,
    answer: { status: 200, model: ImpersonationPolicyDto, description: 'The policy.' },
  }),
  put: operation({
    id: 'putImpersonationPolicy',
    tag: 'Tenant users',
    summary: 'Set the impersonation policy of a tenant',
    description:
      'Permission `users.write` on `{tenant}`. Applies to the impersonation tokens asked for from then on. Audited (`tenant.impersonation_policy_changed`).',
    method: 'PUT',
    path: POLICY_PATH,
    internal: INTERNAL_POLICY_PATH,
    caller: { kind: 'permission', action: 'users.write', tenantParam: 'tenant' },
    params: TENANT,
    body: { type: 'json', model: ImpersonationPolicyUpdateDto },
    answer: { status: 200, model: ImpersonationPolicyDto, description: 'The policy as stored.' },
  }),
};
