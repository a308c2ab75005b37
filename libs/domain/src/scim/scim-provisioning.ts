import { randomUUID } from 'node:crypto';
import { ScimError as PatchError, scimPatch, type ScimPatchOperation } from 'scim-patch';
import { GLOBAL_ADMIN_ROLE } from '../admin';
import { auditActorOf, type AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import { DEFAULT_ROLES, DEFAULT_TENANT, ROLE_BUNDLE } from '../sessions/identity-claims';
import type { ApplicationStore } from '../registry/application';
import type { Stores, Transactor } from '../storage';
import type { User } from '../users/user';
import type { Group, GroupInput } from './group';
import { policyPrincipalOf } from '../authority/principal';
import { checkTenantIsolation } from '../policy/tenant-isolation';
import { type ActingPrincipal, isPlatformAdmin } from '../users/user-administration';
import { ScimError, scimErrors } from './scim-error';
import { listResponse, project, readListQuery, userNameLookup } from './scim-query';
import {
  etagOf,
  GROUP_SCHEMAS,
  readGroupResource,
  readUserResource,
  type ScimLocation,
  toGroupResource,
  toUserResource,
  USER_SCHEMAS,
} from './scim-resources';
import { attributeAt, SCIM_SCHEMAS, type SchemaDefinition } from './scim-schemas';

type Json = Record<string, unknown>;

/** Who provisions, into which tenant (`ScimProvisioning.callerOf`). */
export interface ScimCaller {
  principal: ActingPrincipal;
  tenant: string;
}

/** A resource as answered, with its ETag. */
export interface ScimAnswer {
  resource: Json;
  etag: string;
}

export interface ScimSettings extends ScimLocation {
  /** How long the deny-list entry of a deprovisioned user must outlive its last access token. */
  accessTokenLifetimeSeconds: number;
}

/** What a client may do to the resources of one type (`/Users`, `/Groups`). */
export interface ScimResourceOperations {
  list(caller: ScimCaller, query: Record<string, unknown>): Promise<Json>;
  get(caller: ScimCaller, id: string, query: Record<string, unknown>): Promise<ScimAnswer>;
  create(caller: ScimCaller, body: unknown): Promise<ScimAnswer>;
  replace(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined): Promise<ScimAnswer>;
  patch(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined): Promise<ScimAnswer>;
  delete(caller: ScimCaller, id: string, ifMatch: string | undefined): Promise<void>;
}

/** How often a write without If-Match is retried when another write moved the version under it. */
const UNCONDITIONAL_ATTEMPTS = 3;

/**
 * SCIM 2.0 provisioning of a tenant's users and groups (RFC 7643, RFC 7644; docs/scim.md). Every
 * write runs in one transaction with its audit record; a user set `active: false` or deleted loses
 * its sessions, refresh tokens and access tokens (a `subject` deny-list entry) in the same
 * transaction. Versions are compared-and-set, so of two writes with the same If-Match one wins
 * and the other is 412.
 */
export class ScimProvisioning {
  constructor(
    private readonly stores: Pick<Stores, 'users' | 'groups'> & {
      applications: Pick<ApplicationStore, 'findApplication'>;
    },
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
    private readonly settings: ScimSettings,
  ) {}

  /**
   * The tenant a caller provisions: `requestedTenant` (the `X-Platform-Tenant` header), else its
   * own (a user's, a bound app's), else the default tenant; reaching it is the model's tenant
   * rule (docs/authorization.md): a user or a bound app in its own tenant only, a global_admin
   * and an unbound app anywhere. A bound app is read from the registry as well as from its
   * token, so that a token issued before its tenant was carried in tokens stays confined.
   */
  async callerOf(principal: ActingPrincipal, requestedTenant: string | undefined): Promise<ScimCaller> {
    const own =
      principal.tenant ??
      (principal.kind === 'service'
        ? ((await this.stores.applications.findApplication(principal.clientId))?.tenant ?? null)
        : null);
    const tenant = requestedTenant ?? own ?? DEFAULT_TENANT;
    const reach = checkTenantIsolation(policyPrincipalOf({ ...principal, tenant: own }), tenant);
    if (!reach.allowed) throw scimErrors.forbidden(reach.reason);
    return { principal, tenant };
  }

  /** The operations of the resource type served at `/{endpoint}`; another endpoint is 404. */
  operationsOf(endpoint: string): ScimResourceOperations {
    switch (endpoint) {
      case 'Users':
        return {
          list: (caller, query) => this.listUsers(caller, query),
          get: (caller, id, query) => this.getUser(caller, id, query),
          create: (caller, body) => this.createUser(caller, body),
          replace: (caller, id, body, ifMatch) => this.replaceUser(caller, id, body, ifMatch),
          patch: (caller, id, body, ifMatch) => this.patchUser(caller, id, body, ifMatch),
          delete: (caller, id, ifMatch) => this.deleteUser(caller, id, ifMatch),
        };
      case 'Groups':
        return {
          list: (caller, query) => this.listGroups(caller, query),
          get: (caller, id, query) => this.getGroup(caller, id, query),
          create: (caller, body) => this.createGroup(caller, body),
          replace: (caller, id, body, ifMatch) => this.replaceGroup(caller, id, body, ifMatch),
          patch: (caller, id, body, ifMatch) => this.patchGroup(caller, id, body, ifMatch),
          delete: (caller, id, ifMatch) => this.deleteGroup(caller, id, ifMatch),
        };
      default:
        throw scimErrors.notFound(`no resource type at /${endpoint}`);
    }
  }

  async listUsers(caller: ScimCaller, query: Record<string, unknown>): Promise<Json> {
    const list = readListQuery(query);
    const userName = userNameLookup(list.filter);
    const users =
      userName === undefined
        ? await this.stores.users.listUsersOfTenant(caller.tenant)
        : [await this.stores.users.findUserByUserName(caller.tenant, userName)].filter(
            (u): u is User => u !== null,
          );
    const groups = await this.stores.groups.listGroupsOfTenant(caller.tenant);
    const resources = users.map((u) =>
      toUserResource(
        u,
        groups.filter((g) => g.members.includes(u.id)),
        this.settings,
      ),
    );
    return listResponse(resources, list, USER_SCHEMAS);
  }

  async getUser(caller: ScimCaller, id: string, query: Record<string, unknown>): Promise<ScimAnswer> {
    const user = await this.userOf(this.stores, caller, id);
    const groups = await this.stores.groups.listGroupsOfMember(id);
    return this.answer(toUserResource(user, groups, this.settings), user.version, query, USER_SCHEMAS);
  }

  async createUser(caller: ScimCaller, body: unknown): Promise<ScimAnswer> {
    const input = { ...readUserResource(body), tenant: caller.tenant };
    const now = this.clock.now();
    const id = randomUUID();
    const user = await this.transactor.inTransaction(async (stores) => {
      const created = await stores.users.insertProvisionedUser(
        { ...input, id, roles: [...DEFAULT_ROLES] },
        now,
      );
      if (created === 'duplicate')
        throw scimErrors.uniqueness(`userName ${input.userName} is taken in this tenant`);
      await this.audit(stores, caller, 'user.provisioned', id, now, { active: String(input.active) });
      return (await stores.users.findUser(id)) as User;
    });
    return { resource: toUserResource(user, [], this.settings), etag: etagOf(user.version) };
  }

  replaceUser(
    caller: ScimCaller,
    id: string,
    body: unknown,
    ifMatch: string | undefined,
  ): Promise<ScimAnswer> {
    return this.writeUser(caller, id, ifMatch, () => readUserResource(body));
  }

  patchUser(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined): Promise<ScimAnswer> {
    const operations = readPatch(body, USER_SCHEMAS);
    return this.writeUser(caller, id, ifMatch, (current) =>
      readUserResource(applyPatch(current, operations)),
    );
  }

  async deleteUser(caller: ScimCaller, id: string, ifMatch: string | undefined): Promise<void> {
    const now = this.clock.now();
    await this.transactor.inTransaction(async (stores) => {
      const user = await this.userOf(stores, caller, id);
      checkIfMatch(ifMatch, user.version);
      const revoked = await this.deprovision(stores, user, now);
      await stores.users.deleteUser(id);
      await this.audit(stores, caller, 'user.deleted', id, now, revoked);
    });
  }

  async listGroups(caller: ScimCaller, query: Record<string, unknown>): Promise<Json> {
    const list = readListQuery(query);
    const [groups, users] = await Promise.all([
      this.stores.groups.listGroupsOfTenant(caller.tenant),
      this.stores.users.listUsersOfTenant(caller.tenant),
    ]);
    const members = new Map(users.map((u) => [u.id, u]));
    return listResponse(
      groups.map((g) => toGroupResource(g, members, this.settings)),
      list,
      GROUP_SCHEMAS,
    );
  }

  async getGroup(caller: ScimCaller, id: string, query: Record<string, unknown>): Promise<ScimAnswer> {
    const group = await this.groupOf(this.stores, caller, id);
    const resource = toGroupResource(group, await this.membersOf(this.stores, group.members), this.settings);
    return this.answer(resource, group.version, query, GROUP_SCHEMAS);
  }

  async createGroup(caller: ScimCaller, body: unknown): Promise<ScimAnswer> {
    const input = readGroupResource(body);
    const now = this.clock.now();
    const id = randomUUID();
    return this.transactor.inTransaction(async (stores) => {
      const members = await this.checkGroup(stores, caller, input, []);
      await stores.groups.insertGroup({ ...input, id, tenant: caller.tenant }, now);
      await this.audit(stores, caller, 'group.provisioned', id, now, groupAttributes(input));
      const group = (await stores.groups.findGroup(id)) as Group;
      return { resource: toGroupResource(group, members, this.settings), etag: etagOf(group.version) };
    });
  }

  replaceGroup(
    caller: ScimCaller,
    id: string,
    body: unknown,
    ifMatch: string | undefined,
  ): Promise<ScimAnswer> {
    return this.writeGroup(caller, id, ifMatch, () => readGroupResource(body));
  }

  patchGroup(
    caller: ScimCaller,
    id: string,
    body: unknown,
    ifMatch: string | undefined,
  ): Promise<ScimAnswer> {
    const operations = readPatch(body, GROUP_SCHEMAS);
    return this.writeGroup(caller, id, ifMatch, (current) =>
      readGroupResource(applyPatch(current, operations)),
    );
  }

  async deleteGroup(caller: ScimCaller, id: string, ifMatch: string | undefined): Promise<void> {
    const now = this.clock.now();
    await this.transactor.inTransaction(async (stores) => {
      const group = await this.groupOf(stores, caller, id);
      checkIfMatch(ifMatch, group.version);
      await stores.groups.deleteGroup(id);
      await this.audit(stores, caller, 'group.deleted', id, now, {});
    });
  }

  private async writeUser(
    caller: ScimCaller,
    id: string,
    ifMatch: string | undefined,
    next: (current: Json) => ReturnType<typeof readUserResource>,
  ): Promise<ScimAnswer> {
    return this.retried(ifMatch, async () => {
      const now = this.clock.now();
      return this.transactor.inTransaction(async (stores) => {
        const user = await this.userOf(stores, caller, id);
        checkIfMatch(ifMatch, user.version);
        const groups = await stores.groups.listGroupsOfMember(id);
        const input = { ...next(toUserResource(user, groups, this.settings)), tenant: caller.tenant };
        const result = await stores.users.updateProvisionedUser(id, user.version, input, now);
        if (result === 'duplicate')
          throw scimErrors.uniqueness(`userName ${input.userName} is taken in this tenant`);
        if (result !== 'updated') throw versionMoved();
        if (user.active && !input.active) {
          await this.audit(
            stores,
            caller,
            'user.deprovisioned',
            id,
            now,
            await this.deprovision(stores, user, now),
          );
        } else {
          await this.audit(
            stores,
            caller,
            input.active && !user.active ? 'user.reactivated' : 'user.updated',
            id,
            now,
            {},
          );
        }
        const updated = (await stores.users.findUser(id)) as User;
        return { resource: toUserResource(updated, groups, this.settings), etag: etagOf(updated.version) };
      });
    });
  }

  private async writeGroup(
    caller: ScimCaller,
    id: string,
    ifMatch: string | undefined,
    next: (current: Json) => GroupInput,
  ): Promise<ScimAnswer> {
    return this.retried(ifMatch, async () => {
      const now = this.clock.now();
      return this.transactor.inTransaction(async (stores) => {
        const group = await this.groupOf(stores, caller, id);
        checkIfMatch(ifMatch, group.version);
        const current = toGroupResource(group, await this.membersOf(stores, group.members), this.settings);
        const input = next(current);
        const members = await this.checkGroup(stores, caller, input, group.roles);
        const result = await stores.groups.updateGroup(id, group.version, input, now);
        if (result !== 'updated') throw versionMoved();
        await this.audit(stores, caller, 'group.updated', id, now, groupAttributes(input));
        const updated = (await stores.groups.findGroup(id)) as Group;
        return { resource: toGroupResource(updated, members, this.settings), etag: etagOf(updated.version) };
      });
    });
  }

  /**
   * With If-Match, a version that moved is the client's 412. Without it the client asked for no
   * precondition, so a write that lost a race is run again on the new version.
   */
  private async retried<T>(ifMatch: string | undefined, write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        const lostRace = error instanceof ScimError && error.status === 412 && ifMatch === undefined;
        if (!lostRace || attempt >= UNCONDITIONAL_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * Members must be users of the tenant; roles must be names of the bundle, and only a platform
   * admin grants or takes away global_admin through a group.
   */
  private async checkGroup(
    stores: Pick<Stores, 'users'>,
    caller: ScimCaller,
    input: GroupInput,
    rolesBefore: readonly string[],
  ): Promise<Map<string, User>> {
    const unknownRoles = input.roles.filter((r) => !(ROLE_BUNDLE as readonly string[]).includes(r));
    if (unknownRoles.length > 0) {
      throw scimErrors.invalidValue(
        `unknown roles: ${unknownRoles.join(' ')} (the bundle is ${ROLE_BUNDLE.join(', ')})`,
      );
    }
    const touchesGlobalAdmin =
      input.roles.includes(GLOBAL_ADMIN_ROLE) !== rolesBefore.includes(GLOBAL_ADMIN_ROLE);
    if (touchesGlobalAdmin && !isPlatformAdmin(caller.principal)) {
      throw scimErrors.forbidden('only a platform admin grants or removes global_admin');
    }
    const members = await this.membersOf(stores, input.members);
    const strangers = input.members.filter((id) => members.get(id)?.tenant !== caller.tenant);
    if (strangers.length > 0)
      throw scimErrors.invalidValue(`not users of this tenant: ${strangers.join(', ')}`);
    return members;
  }

  /** Ends the user's sessions, revokes its refresh tokens and denies its access tokens, at once. */
  private async deprovision(stores: Stores, user: User, now: Date): Promise<Record<string, string>> {
    const expiresAt = new Date(now.getTime() + this.settings.accessTokenLifetimeSeconds * 1000);
    const refreshTokens = await stores.refreshTokens.revokeRefreshTokensOfUser(user.id, now);
    const sessions = await stores.sessions.endSessionsOfUser(user.id, now);
    // After the row writes: the feed's lock is taken last (libs/persistence feed-order.ts).
    await stores.revocations.addRevocations([{ kind: 'subject', value: user.id, expiresAt }], now);
    return { refresh_tokens_revoked: String(refreshTokens), sessions_ended: String(sessions) };
  }

  private async userOf(stores: Pick<Stores, 'users'>, caller: ScimCaller, id: string): Promise<User> {
    const user = await stores.users.findUser(id);
    if (!user || user.tenant !== caller.tenant) throw scimErrors.notFound(`no User ${id} in this tenant`);
    return user;
  }

  private async groupOf(stores: Pick<Stores, 'groups'>, caller: ScimCaller, id: string): Promise<Group> {
    const group = await stores.groups.findGroup(id);
    if (!group || group.tenant !== caller.tenant) throw scimErrors.notFound(`no Group ${id} in this tenant`);
    return group;
  }

  private async membersOf(stores: Pick<Stores, 'users'>, ids: readonly string[]): Promise<Map<string, User>> {
    const users = await Promise.all(ids.map((id) => stores.users.findUser(id)));
    return new Map(users.filter((u): u is User => u !== null).map((u) => [u.id, u]));
  }

  private answer(
    resource: Json,
    version: number,
    query: Record<string, unknown>,
    schemas: readonly SchemaDefinition[],
  ): ScimAnswer {
    const { projection } = readListQuery({
      attributes: query.attributes,
      excludedAttributes: query.excludedAttributes,
    });
    return { resource: project(resource, projection, schemas), etag: etagOf(version) };
  }

  private async audit(
    stores: Pick<Stores, 'audit'>,
    caller: ScimCaller,
    action: string,
    target: string,
    now: Date,
    attributes: Record<string, string>,
  ): Promise<void> {
    await stores.audit.appendAuditRecords([
      this.trail.record({
        actor: auditActorOf(caller.principal),
        action,
        target,
        tenant: caller.tenant,
        attributes: { ...attributes, via: 'scim' },
        occurredAt: now,
      }),
    ]);
  }
}

const versionMoved = () =>
  scimErrors.preconditionFailed('the resource changed since the version given in If-Match');

/** `If-Match: W/"3"` (or `"3"`, or `*`) against the stored version; a mismatch is 412. */
function checkIfMatch(ifMatch: string | undefined, version: number): void {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  const wanted = ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!wanted.includes(`"${version}"`)) throw versionMoved();
}

/** A PatchOp message (RFC 7644 section 3.5.2), checked; paths at read-only attributes are `mutability`. */
function readPatch(body: unknown, schemas: readonly SchemaDefinition[]): ScimPatchOperation[] {
  const message = (typeof body === 'object' && body !== null ? body : {}) as Json;
  const declared = Array.isArray(message.schemas) ? message.schemas : [];
  if (!declared.includes(SCIM_SCHEMAS.patchOp))
    throw scimErrors.invalidSyntax(`schemas must include ${SCIM_SCHEMAS.patchOp}`);
  const operations = message.Operations ?? message.operations;
  if (!Array.isArray(operations) || operations.length === 0) {
    throw scimErrors.invalidSyntax('Operations must be a non-empty array');
  }
  return operations
    .map((operation: unknown) => {
      const op = operation as Json;
      if (typeof op?.op !== 'string' || !/^(add|remove|replace)$/i.test(op.op)) {
        throw scimErrors.invalidSyntax('each operation needs op add, remove or replace');
      }
      if (op.path !== undefined && typeof op.path !== 'string')
        throw scimErrors.invalidPath('path must be a string');
      const target = typeof op.path === 'string' ? op.path.split(/[[.]/)[0] : undefined;
      const readOnly =
        target !== undefined &&
        (target.toLowerCase() === 'meta' || attributeAt(target, schemas)?.mutability === 'readOnly');
      if (readOnly) throw scimErrors.mutability(`${op.path as string} is read-only`);
      return removalsByValue({ ...op, op: op.op.toLowerCase() } as ScimPatchOperation);
    })
    .flat();
}

/**
 * `remove` of `members` with `value: [{value: id}]` (as Entra ID sends it) removes each member
 * by its id, whatever else the stored entry carries (`display`, `$ref`): one removal per value.
 */
function removalsByValue(operation: ScimPatchOperation): ScimPatchOperation[] {
  const values = (operation as { value?: unknown }).value;
  if (operation.op !== 'remove' || typeof operation.path !== 'string' || operation.path.includes('['))
    return [operation];
  if (!Array.isArray(values) || !values.every((v) => typeof (v as Json | null)?.value === 'string'))
    return [operation];
  return values.map((v) => ({
    op: 'remove',
    path: `${operation.path as string}[value eq ${JSON.stringify((v as { value: string }).value)}]`,
  }));
}

function applyPatch(resource: Json, operations: ScimPatchOperation[]): Json {
  try {
    return scimPatch(structuredClone(resource) as never, operations, {
      mutateDocument: true,
      treatMissingAsAdd: true,
    });
  } catch (error) {
    if (!(error instanceof PatchError)) throw error;
    const scimType =
      error.scimCode === 'noTarget'
        ? 'noTarget'
        : /path/i.test(error.message)
          ? 'invalidPath'
          : 'invalidValue';
    throw new ScimError(400, scimType, error.message);
  }
}

function groupAttributes(input: GroupInput): Record<string, string> {
  return { members: String(input.members.length), roles: input.roles.join(' ') };
}
