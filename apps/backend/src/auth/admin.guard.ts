import { applyDecorators, type ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { DeclaresAuthority, tenantFromPath } from '@platform/contract';
import { ADMIN_SCOPE, BearerError, isAdminToken, PLATFORM_ADMIN } from '@platform/domain';
import { type AuthenticatedRequest, BearerGuard } from './bearer.guard';

/** BearerGuard plus the admin check; a valid non-admin token: 403 insufficient_scope. */
@Injectable()
export class AdminGuard extends BearerGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    const claims = context.switchToHttp().getRequest<AuthenticatedRequest>().claims;
    if (claims === undefined || !isAdminToken(claims)) {
      throw new BearerError('insufficient_scope', 'An admin token is required', ADMIN_SCOPE);
    }
    return true;
  }
}

/**
 * Platform administration (PLATFORM_ADMIN: the unbound admin app or a `global_admin` user), on a
 * handler or on every handler of a controller, declared as such (`x-authority`). `tenantParam`:
 * the path parameter naming the tenant administered; the decision does not depend on it (a
 * platform administrator reaches every tenant), the declaration records it.
 */
export const RequireAdmin = ({ tenantParam }: { tenantParam?: string } = {}) =>
  applyDecorators(
    UseGuards(AdminGuard),
    DeclaresAuthority({ permission: PLATFORM_ADMIN, tenant: tenantFromPath(tenantParam) }),
  );
