import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, jsonStringArray } from '../transformers';

/** SCIM groups of a tenant (docs/scim.md). */
@Entity('user_groups')
@Index('idx_user_groups_tenant', ['tenant'])
export class GroupEntity {
  @PrimaryColumn({ type: 'varchar' })
  id: string;

  @Column({ type: 'varchar' })
  tenant: string;

  @Column({ name: 'display_name', type: 'varchar' })
  displayName: string;

  @Column({ name: 'external_id', type: 'varchar', nullable: true })
  externalId: string | null;

  @Column({ type: 'text', transformer: jsonStringArray })
  roles: string[];

  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMillis })
  updatedAt: Date;
}

@Entity('user_group_members')
@Index('idx_user_group_members_user_id', ['userId'])
export class GroupMemberEntity {
  @PrimaryColumn({ name: 'group_id', type: 'varchar' })
  groupId: string;

  @PrimaryColumn({ name: 'user_id', type: 'varchar' })
  userId: string;
}
