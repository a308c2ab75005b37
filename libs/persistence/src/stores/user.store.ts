import { randomUUID } from 'node:crypto';
import type { ExternalUserInput, User, UserStore } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { UserEntity } from '../entities/user.entity';

/** Columns an upsert refreshes; id and created_at stay as first stored, roles on request. */
const UPSERT_UPDATES = ['email', 'name', 'tenant', 'updated_at'];

export class TypeOrmUserStore implements UserStore {
  constructor(private readonly manager: EntityManager) {}

  async findUser(id: string): Promise<User | null> {
    const row = await this.manager.findOneBy(UserEntity, { id });
    return row && toUser(row);
  }

  async upsertUserByExternalId(input: ExternalUserInput, now: Date): Promise<User> {
    const { keepStoredRoles, ...user } = input;
    // INSERT ... ON CONFLICT DO UPDATE: atomic on both databases, so two first logins of the
    // same person cannot create two users.
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(UserEntity)
      .values({ ...user, id: randomUUID(), createdAt: now, updatedAt: now })
      .orUpdate(keepStoredRoles ? UPSERT_UPDATES : [...UPSERT_UPDATES, 'roles'], ['issuer', 'subject'])
      .updateEntity(false)
      .execute();
    const row = await this.manager.findOneBy(UserEntity, { issuer: user.issuer, subject: user.subject });
    // Unreachable short of a concurrent delete; the message names no identity on purpose.
    if (!row) throw new Error('the upserted user could not be read back');
    return toUser(row);
  }

  async setUserRoles(id: string, roles: string[], now: Date): Promise<boolean> {
    const result = await this.manager.update(UserEntity, { id }, { roles, updatedAt: now });
    return (result.affected ?? 0) > 0;
  }

  async listUsersOfTenant(tenant: string): Promise<User[]> {
    const rows = await this.manager.find(UserEntity, { where: { tenant }, order: { id: 'ASC' } });
    return rows.map(toUser);
  }
}

function toUser(row: UserEntity): User {
  return {
    id: row.id,
    issuer: row.issuer,
    subject: row.subject,
    email: row.email,
    name: row.name,
    tenant: row.tenant,
    roles: row.roles,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
