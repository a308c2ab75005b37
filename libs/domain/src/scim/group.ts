import type { ConditionalUpdateResult } from '../storage';

/** A SCIM group of a tenant; its members hold its roles. */
export interface Group {
  id: string;
  tenant: string;
  displayName: string;
  externalId: string | null;
  /** Platform roles every member holds through the group (names of the role bundle). */
  roles: string[];
  /** User ids, ordered. */
  members: string[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface GroupInput {
  displayName: string;
  externalId: string | null;
  roles: string[];
  members: string[];
}

export interface GroupStore {
  insertGroup(group: GroupInput & { id: string; tenant: string }, now: Date): Promise<void>;
  findGroup(id: string): Promise<Group | null>;
  /** Ordered by id. */
  listGroupsOfTenant(tenant: string): Promise<Group[]>;
  /** The groups `userId` is a member of, ordered by id. */
  listGroupsOfMember(userId: string): Promise<Group[]>;
  /** Replaces the group if the stored version is `expectedVersion`, adding one to it. */
  updateGroup(
    id: string,
    expectedVersion: number,
    group: GroupInput,
    now: Date,
  ): Promise<Exclude<ConditionalUpdateResult, 'duplicate'>>;
  deleteGroup(id: string): Promise<boolean>;
}
