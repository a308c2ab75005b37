import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ADMIN_SCOPE, BearerError, parseScope, scopesCover } from '@platform/domain';
import type { TokenClaims } from '@platform/grpc';
import { type AuthenticatedRequest, BearerGuard } from './bearer.guard';

export const GLOBAL_ADMIN_ROLE = 'global_admin';

/** An admin token: a valid token carrying `admin.*` or, for users, the `global_admin` role. */
export function isAdmin(claims: Pick<TokenClaims, 'scope' | 'roles'>): boolean {
  return (
    scopesCover(parseScope(claims.scope), ADMIN_SCOPE) || (claims.roles ?? []).includes(GLOBAL_ADMIN_ROLE)
  );
}

/** BearerGuard plus the admin check; a valid non-admin token: 403 insufficient_scope. */
@Injectable()
export class AdminGuard extends BearerGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    const claims = context.switchToHttp().getRequest<AuthenticatedRequest>().claims;
    if (claims === undefined || !isAdmin(claims)) {
      throw new BearerError('insufficient_scope', 'An admin token is required', ADMIN_SCOPE);
    }
    return true;
  }
}
