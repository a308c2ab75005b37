/**
 * Authorization policies: default deny, an explicit deny wins over any allow. A decision names
 * the policies that made it, so an operator can see why a call was refused.
 */

export const ROLES = ['global_admin', 'tenant_admin', 'user', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Who is calling: a user (forwarded token) or an app acting as itself (service token). */
export type Principal =
  | { kind: 'user'; id: string; clientId: string; tenant: string; roles: string[] }
  | { kind: 'service'; id: string; clientId: string; scopes: string[] };

export interface PolicyRequest {
  principal: Principal;
  /** A scope-shaped action, for example `jobs.read`. */
  action: string;
  /** The tenant the resource belongs to; absent for platform-wide resources. */
  resourceTenant?: string;
}

export interface Policy {
  id: string;
  description: string;
  effect: 'allow' | 'deny';
  /** Roles the policy applies to; `*` for every user. Service principals never match roles. */
  roles: string[];
  /** Action patterns with `resource.*` wildcards, or `*` for every action. */
  actions: string[];
  /**
   * `own`: only resources of the principal's tenant (or platform-wide ones); `other`: only
   * resources of another tenant; `any`: wherever they are.
   */
  tenants: 'own' | 'other' | 'any';
}

export type Effect = 'allow' | 'deny';

export interface PolicyDecision {
  effect: Effect;
  /** Ids of the policies that decided; empty when nothing matched (default deny). */
  decidedBy: string[];
  reason: string;
}
