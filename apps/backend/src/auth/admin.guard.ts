import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ADMIN_SCOPE, BearerError, isAdminToken } from '@platform/domain';
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
