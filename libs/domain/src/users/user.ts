import type { ConditionalUpdateResult, InsertResult } from '../storage';

/**
 * A user of a tenant: known through the external identity provider (issuer and subject, set at
 * the first login), provisioned through SCIM (userName, externalId, the SCIM profile), or both
 * once a provisioned user logs in (docs/scim.md, "One user").
 */
export interface User {
  id: string;
  /** null for a user provisioned through SCIM who has not logged in yet. */
  issuer: string | null;
  subject: string | null;
  email: string | null;
  name: string | null;
  tenant: string;
  /** Roles bound to the user itself (by the provider, or by an admin). */
  roles: string[];
  /** Roles the user holds through the groups it is a member of (read only here). */
  groupRoles: string[];
  /** SCIM `userName`; null for a user only the login flow knows. */
  userName: string | null;
  /** SCIM `externalId`: the provisioning client's own id of the user. */
  externalId: string | null;
  /** false: deprovisioned; no login, no token. */
  active: boolean;
  /** The SCIM attributes the platform keeps as given (name, emails, enterprise extension...). */
  profile: Record<string, unknown> | null;
  /** Incremented by every change made through SCIM: the resource's ETag. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A user as the identity provider describes them at login. */
export interface ExternalUserInput {
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
  tenant: string;
  roles: string[];
  /**
   * The provider said nothing about roles: `roles` applies to a new user only, and an existing
   * user keeps the roles an admin bound through the API.
   */
  keepStoredRoles: boolean;
}

/** What SCIM provisioning writes of a user: everything but the identity of its login. */
export interface ProvisionedUserInput {
  tenant: string;
  userName: string;
  externalId: string | null;
  active: boolean;
  email: string | null;
  name: string | null;
  profile: Record<string, unknown>;
}

export interface UserStore {
  findUser(id: string): Promise<User | null>;
  /** Creates or updates by (issuer, subject); returns the stored user with its id. */
  upsertUserByExternalId(user: ExternalUserInput, now: Date): Promise<User>;
  setUserRoles(id: string, roles: string[], now: Date): Promise<boolean>;
  /** The users of one tenant, ordered by id. */
  listUsersOfTenant(tenant: string): Promise<User[]>;
  /** 'duplicate' when the tenant has a user of that userName (compared case-insensitively). */
  insertProvisionedUser(
    user: ProvisionedUserInput & { id: string; roles: string[] },
    now: Date,
  ): Promise<InsertResult>;
  /** Replaces the provisioned attributes if the stored version is `expectedVersion`, adding one to it. */
  updateProvisionedUser(
    id: string,
    expectedVersion: number,
    user: ProvisionedUserInput,
    now: Date,
  ): Promise<ConditionalUpdateResult>;
  /** The user of that userName in the tenant, compared case-insensitively. */
  findUserByUserName(tenant: string, userName: string): Promise<User | null>;
  /**
   * When no user has the identity (issuer, subject) yet: a provisioned user of the tenant no
   * login has claimed (issuer null) whose externalId is `subject` or, failing that, whose
   * userName is `userName` (case-insensitively). Else null.
   */
  findUnlinkedUser(
    tenant: string,
    match: { issuer: string; subject: string; userName: string | null },
  ): Promise<User | null>;
  /** Gives a provisioned user the identity of its login; false when it already has one. */
  linkUserIdentity(id: string, identity: { issuer: string; subject: string }, now: Date): Promise<boolean>;
  /** Deletes the user and its group memberships; false when there was no such user. */
  deleteUser(id: string): Promise<boolean>;
}
