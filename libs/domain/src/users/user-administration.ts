import type { Clock } from '../clock';
import { DomainError, notFound, validationFailed } from '../errors';
import { GLOBAL_ADMIN_ROLE } from '../admin';
import { isPlatformAdministrator } from '../authority/decide';
import { type ActingPrincipal, policyPrincipalOf } from '../authority/principal';
import { checkTenantIsolation } from '../policy/tenant-isolation';
import { ROLE_BUNDLE } from '../sessions/identity-claims';
import { auditActorOf, type AuditTrail } from '../audit/audit-trail';
import type { Transactor } from '../storage';
import type { User, UserStore } from './user';

export type { ActingPrincipal } from '../authority/principal';

/** Platform-wide administrators: a global_admin user, or the unbound admin app. */
export function isPlatformAdmin(principal: ActingPrincipal): boolean {
  return isPlatformAdministrator(policyPrincipalOf(principal));
}

const forbidden = (message: string): DomainError => new DomainError('forbidden', message);

/**
 * A user acts in its own tenant only, unless it is a global_admin; a bound app in its tenant
 * only; an unbound app's scopes, already checked by the decision, bound it instead.
 */
export function assertReachesTenant(principal: ActingPrincipal, tenant: string): void {
  const verdict = checkTenantIsolation(policyPrincipalOf(principal), tenant);
  if (!verdict.allowed) throw forbidden(`the caller does not belong to tenant ${tenant}`);
}

/**
 * Tenant user administration. Whether the caller may read or write users of the tenant at all
 * is decided before (the backend's permission guard, through the sidecar's policies); this
 * service keeps the rules that depend on the data: a user outside the tenant does not exist
 * for it, roles are names of the bundle, and only a platform administrator grants or takes
 * away global_admin.
 */
export class UserAdministration {
  constructor(
    private readonly users: Pick<UserStore, 'findUser' | 'listUsersOfTenant'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async list(principal: ActingPrincipal, tenant: string): Promise<User[]> {
    assertReachesTenant(principal, tenant);
    return this.users.listUsersOfTenant(tenant);
  }

  /** not_found also when the user exists in another tenant: the tenant is the boundary. */
  async get(principal: ActingPrincipal, tenant: string, userId: string): Promise<User> {
    assertReachesTenant(principal, tenant);
    const user = await this.users.findUser(userId);
    if (!user || user.tenant !== tenant) throw notFound(`user ${userId} in tenant ${tenant}`);
    return user;
  }

  async setRoles(principal: ActingPrincipal, tenant: string, userId: string, roles: unknown): Promise<User> {
    const wanted = validRoles(roles);
    const user = await this.get(principal, tenant, userId);
    const touchesGlobalAdmin = wanted.includes(GLOBAL_ADMIN_ROLE) || user.roles.includes(GLOBAL_ADMIN_ROLE);
    if (touchesGlobalAdmin && !isPlatformAdmin(principal)) {
      throw forbidden('only a global_admin grants or removes the global_admin role');
    }
    const now = this.clock.now();
    await this.transactor.inTransaction(async (stores) => {
      if (!(await stores.users.setUserRoles(user.id, wanted, now))) throw notFound(`user ${userId}`);
      await stores.audit.appendAuditRecords([
        this.trail.record({
          actor: auditActorOf(principal),
          action: 'user.roles_changed',
          target: user.id,
          tenant,
          attributes: { from: user.roles.join(' '), to: wanted.join(' ') },
          occurredAt: now,
        }),
      ]);
    });
    return { ...user, roles: wanted, updatedAt: now };
  }

  /**
   * Defence in depth behind the backend's guard: a user who is not a platform administrator
   * never reaches into another tenant, whatever the caller forwarded.
   */
}

function validRoles(roles: unknown): string[] {
  if (!Array.isArray(roles) || roles.some((r) => typeof r !== 'string')) {
    throw validationFailed('roles must be an array of role names');
  }
  const unique = [...new Set(roles as string[])];
  if (unique.length === 0) throw validationFailed('roles must name at least one role');
  const unknown = unique.filter((r) => !(ROLE_BUNDLE as readonly string[]).includes(r));
  if (unknown.length > 0) {
    throw validationFailed(`unknown roles: ${unknown.join(' ')} (the bundle is ${ROLE_BUNDLE.join(', ')})`);
  }
  return unique;
}
