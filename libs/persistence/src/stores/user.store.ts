import { randomUUID } from 'node:crypto';
import type {
  ConditionalUpdateResult,
  ExternalUserInput,
  InsertResult,
  ProvisionedUserInput,
  User,
  UserStore,
} from '@platform/domain';
import { type EntityManager, In, IsNull } from 'typeorm';
import { isUniqueViolation } from '../driver-errors';
import { GroupMemberEntity } from '../entities/group.entity';
import { UserEntity } from '../entities/user.entity';
import { insertOnce } from './insert-once';
import { rolesOfGroupsOf } from './group.store';

/** Columns an upsert refreshes; id and created_at stay as first stored, roles on request. */
const UPSERT_UPDATES = ['email', 'name', 'tenant', 'updated_at'];

export class TypeOrmUserStore implements UserStore {
  constructor(private readonly manager: EntityManager) {}

  async findUser(id: string): Promise<User | null> {
    const row = await this.manager.findOneBy(UserEntity, { id });
    return row && (await this.withGroupRoles([row]))[0];
  }

  async upsertUserByExternalId(input: ExternalUserInput, now: Date): Promise<User> {
    const { keepStoredRoles, ...user } = input;
    // INSERT ... ON CONFLICT DO UPDATE: atomic on both databases, so two first logins of the
    // same person cannot create two users.
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(UserEntity)
      .values({ ...user, ...NOT_PROVISIONED, id: randomUUID(), createdAt: now, updatedAt: now })
      .orUpdate(keepStoredRoles ? UPSERT_UPDATES : [...UPSERT_UPDATES, 'roles'], ['issuer', 'subject'])
      .updateEntity(false)
      .execute();
    const row = await this.manager.findOneBy(UserEntity, { issuer: user.issuer, subject: user.subject });
    // Unreachable short of a concurrent delete; the message names no identity on purpose.
    if (!row) throw new Error('the upserted user could not be read back');
    return (await this.withGroupRoles([row]))[0];
  }

  async setUserRoles(id: string, roles: string[], now: Date): Promise<boolean> {
    const result = await this.manager.update(UserEntity, { id }, { roles, updatedAt: now });
    return (result.affected ?? 0) > 0;
  }

  async listUsersOfTenant(tenant: string): Promise<User[]> {
    const rows = await this.manager.find(UserEntity, { where: { tenant }, order: { id: 'ASC' } });
    return this.withGroupRoles(rows);
  }

  insertProvisionedUser(
    user: ProvisionedUserInput & { id: string; roles: string[] },
    now: Date,
  ): Promise<InsertResult> {
    const row: UserEntity = {
      ...provisionedColumns(user),
      id: user.id,
      issuer: null,
      subject: null,
      roles: user.roles,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    // The profile is JSON text through its transformer, which the partial-entity type cannot see.
    return insertOnce(this.manager, UserEntity, row as never);
  }

  async updateProvisionedUser(
    id: string,
    expectedVersion: number,
    user: ProvisionedUserInput,
    now: Date,
  ): Promise<ConditionalUpdateResult> {
    const update = (m: EntityManager) =>
      m
        .createQueryBuilder()
        .update(UserEntity)
        .set({ ...provisionedColumns(user), version: () => 'version + 1', updatedAt: now })
        .where('id = :id AND version = :expectedVersion', { id, expectedVersion })
        .execute();
    try {
      // Under a savepoint inside a transaction: a userName clash must not abort it on Postgres.
      const result = this.manager.queryRunner?.isTransactionActive
        ? await this.manager.transaction(update)
        : await update(this.manager);
      if ((result.affected ?? 0) > 0) return 'updated';
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      throw error;
    }
    return (await this.manager.existsBy(UserEntity, { id })) ? 'version_mismatch' : 'not_found';
  }

  async findUserByUserName(tenant: string, userName: string): Promise<User | null> {
    const row = await this.manager.findOneBy(UserEntity, { tenant, userNameKey: userName.toLowerCase() });
    return row && (await this.withGroupRoles([row]))[0];
  }

  async findUnlinkedUser(
    tenant: string,
    match: { issuer: string; subject: string; userName: string | null },
  ): Promise<User | null> {
    if (await this.manager.existsBy(UserEntity, { issuer: match.issuer, subject: match.subject }))
      return null;
    const unlinked = { tenant, issuer: IsNull() };
    const row =
      (await this.manager.findOneBy(UserEntity, { ...unlinked, externalId: match.subject })) ??
      (match.userName === null
        ? null
        : await this.manager.findOneBy(UserEntity, {
            ...unlinked,
            userNameKey: match.userName.toLowerCase(),
          }));
    return row && (await this.withGroupRoles([row]))[0];
  }

  async linkUserIdentity(
    id: string,
    identity: { issuer: string; subject: string },
    now: Date,
  ): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(UserEntity)
      .set({ ...identity, updatedAt: now })
      .where('id = :id AND issuer IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async deleteUser(id: string): Promise<boolean> {
    await this.manager.delete(GroupMemberEntity, { userId: id });
    const result = await this.manager.delete(UserEntity, { id });
    return (result.affected ?? 0) > 0;
  }

  private async withGroupRoles(rows: UserEntity[]): Promise<User[]> {
    if (rows.length === 0) return [];
    const roles = await rolesOfGroupsOf(this.manager, In(rows.map((r) => r.id)));
    return rows.map((row) => toUser(row, roles.get(row.id) ?? []));
  }
}

/** What a login-created user holds of the SCIM attributes: nothing yet, and active. */
const NOT_PROVISIONED = {
  userName: null,
  userNameKey: null,
  externalId: null,
  active: true,
  profile: null,
  version: 1,
};

function provisionedColumns(user: ProvisionedUserInput) {
  return {
    tenant: user.tenant,
    userName: user.userName,
    userNameKey: user.userName.toLowerCase(),
    externalId: user.externalId,
    active: user.active,
    email: user.email,
    name: user.name,
    profile: user.profile,
  };
}

function toUser(row: UserEntity, groupRoles: string[]): User {
  return {
    id: row.id,
    issuer: row.issuer,
    subject: row.subject,
    email: row.email,
    name: row.name,
    tenant: row.tenant,
    roles: row.roles,
    groupRoles,
    userName: row.userName,
    externalId: row.externalId,
    active: Boolean(row.active),
    profile: row.profile,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
