import type { ConditionalUpdateResult, Group, GroupInput, GroupStore } from '@platform/domain';
import { type EntityManager, type FindOperator, In } from 'typeorm';
import { GroupEntity, GroupMemberEntity } from '../entities/group.entity';

export class TypeOrmGroupStore implements GroupStore {
  constructor(private readonly manager: EntityManager) {}

  async insertGroup(group: GroupInput & { id: string; tenant: string }, now: Date): Promise<void> {
    await this.manager.insert(GroupEntity, {
      id: group.id,
      tenant: group.tenant,
      displayName: group.displayName,
      externalId: group.externalId,
      roles: group.roles,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    await this.insertMembers(group.id, group.members);
  }

  async findGroup(id: string): Promise<Group | null> {
    const row = await this.manager.findOneBy(GroupEntity, { id });
    return row && (await this.withMembers([row]))[0];
  }

  async listGroupsOfTenant(tenant: string): Promise<Group[]> {
    return this.withMembers(
      await this.manager.find(GroupEntity, { where: { tenant }, order: { id: 'ASC' } }),
    );
  }

  async listGroupsOfMember(userId: string): Promise<Group[]> {
    const memberships = await this.manager.findBy(GroupMemberEntity, { userId });
    if (memberships.length === 0) return [];
    const rows = await this.manager.find(GroupEntity, {
      where: { id: In(memberships.map((m) => m.groupId)) },
      order: { id: 'ASC' },
    });
    return this.withMembers(rows);
  }

  async updateGroup(
    id: string,
    expectedVersion: number,
    group: GroupInput,
    now: Date,
  ): Promise<Exclude<ConditionalUpdateResult, 'duplicate'>> {
    const result = await this.manager
      .createQueryBuilder()
      .update(GroupEntity)
      .set({
        displayName: group.displayName,
        externalId: group.externalId,
        roles: group.roles,
        version: () => 'version + 1',
        updatedAt: now,
      })
      .where('id = :id AND version = :expectedVersion', { id, expectedVersion })
      .execute();
    if ((result.affected ?? 0) === 0) {
      return (await this.manager.existsBy(GroupEntity, { id })) ? 'version_mismatch' : 'not_found';
    }
    await this.manager.delete(GroupMemberEntity, { groupId: id });
    await this.insertMembers(id, group.members);
    return 'updated';
  }

  async deleteGroup(id: string): Promise<boolean> {
    await this.manager.delete(GroupMemberEntity, { groupId: id });
    const result = await this.manager.delete(GroupEntity, { id });
    return (result.affected ?? 0) > 0;
  }

  private async insertMembers(groupId: string, members: string[]): Promise<void> {
    if (members.length > 0) {
      await this.manager.insert(
        GroupMemberEntity,
        [...new Set(members)].map((userId) => ({ groupId, userId })),
      );
    }
  }

  private async withMembers(rows: GroupEntity[]): Promise<Group[]> {
    if (rows.length === 0) return [];
    const memberships = await this.manager.find(GroupMemberEntity, {
      where: { groupId: In(rows.map((r) => r.id)) },
      order: { userId: 'ASC' },
    });
    return rows.map((row) => ({
      id: row.id,
      tenant: row.tenant,
      displayName: row.displayName,
      externalId: row.externalId,
      roles: row.roles,
      members: memberships.filter((m) => m.groupId === row.id).map((m) => m.userId),
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }));
  }
}

/** user id -> the roles its groups grant, for the users `userIds` selects. */
export async function rolesOfGroupsOf(
  manager: EntityManager,
  userIds: FindOperator<string>,
): Promise<Map<string, string[]>> {
  const roles = new Map<string, string[]>();
  const memberships = await manager.findBy(GroupMemberEntity, { userId: userIds });
  if (memberships.length === 0) return roles;
  const groups = await manager.findBy(GroupEntity, {
    id: In([...new Set(memberships.map((m) => m.groupId))]),
  });
  const rolesOfGroup = new Map(groups.map((g) => [g.id, g.roles]));
  for (const { userId, groupId } of memberships) {
    const held = new Set([...(roles.get(userId) ?? []), ...(rolesOfGroup.get(groupId) ?? [])]);
    roles.set(userId, [...held].sort());
  }
  return roles;
}
