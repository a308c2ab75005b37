/**
 * Authorization policies: default deny, an explicit deny wins over any allow. A decision names
 * the policies that made it, so an operator can see why a call was refused.
 */

/**
 * Who is calling: a user (forwarded user token: tenant and roles) or an app acting as itself
 * (service token), bound to one tenant when its app is. Both carry the scopes of their token.
 */
export type PolicyPrincipal =
  | {
      kind: 'user';
      id: string;
      clientId: string;
      tenant: string;
      roles: string[];
      scopes: string[];
      /** An impersonation token of a tenant that made impersonation read-only: only `*.read` actions. */
      readOnly?: true;
    }
  | { kind: 'service'; id: string; clientId: string; scopes: string[]; tenant?: string };

export interface PolicyRequest {
  principal: PolicyPrincipal;
  /** A scope-shaped action, for example `jobs.read`. */
  action: string;
  /** The tenant the resource belongs to; absent for platform-wide resources. */
  resourceTenant?: string;
}

export const POLICY_EFFECTS = ['allow', 'deny'] as const;
export type Effect = (typeof POLICY_EFFECTS)[number];

export const POLICY_TENANTS = ['own', 'other', 'any'] as const;
export type PolicyTenants = (typeof POLICY_TENANTS)[number];

export interface Policy {
  id: string;
  description: string;
  effect: Effect;
  /** Roles the policy applies to; `*` for every user. Service principals never match roles. */
  roles: string[];
  /** Action patterns with `resource.*` wildcards, or `*` for every action. */
  actions: string[];
  /**
   * `own`: only resources of the principal's tenant; `other`: resources of another tenant or
   * platform-wide ones; `any`: wherever they are.
   */
  tenants: PolicyTenants;
}

/** The permission of platform administration: the admin app, or a `global_admin` user. */
export const PLATFORM_ADMIN = 'admin.*';

/** The name a decision gives the refusal of a write by a read-only impersonation token. */
export const READ_ONLY_IMPERSONATION = 'impersonation-read-only';

/** Whether an action only reads: what a read-only impersonation token may still do. */
export function isReadAction(action: string): boolean {
  return action.endsWith('.read');
}

/** The name a decision gives the token's scope check, beside the role policies. */
export const TOKEN_SCOPE_CHECK = 'token-scope';

export interface PolicyDecision {
  effect: Effect;
  /**
   * What decided: the scope check (`token-scope`) and/or the ids of the role policies; empty
   * for the default deny of a user whose scopes cover the action.
   */
  decidedBy: string[];
  reason: string;
  /** Set on a refusal of a principal confined to one tenant reaching into another (audited). */
  crossTenant?: boolean;
}
