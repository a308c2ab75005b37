import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { DeclaresAuthority } from '@platform/contract';
import { BearerError, OPENID_SCOPE, parseScope } from '@platform/domain';
import { type AuthenticatedRequest, BearerGuard } from '../auth/bearer.guard';

/**
 * After BearerGuard: the token must have been issued with `openid`, the user's consent to be
 * identified to the client (OpenID Connect Core section 5.3.1); else 403 insufficient_scope.
 */
@Injectable()
export class OpenIdTokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { claims } = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!parseScope(claims?.scope).includes(OPENID_SCOPE)) {
      throw new BearerError(
        'insufficient_scope',
        'The token was not issued with the openid scope',
        OPENID_SCOPE,
      );
    }
    return true;
  }
}

/** A valid access token holding `openid`, declared as such (`x-authority` `openid`). */
export const RequireOpenIdToken = () =>
  applyDecorators(
    UseGuards(BearerGuard, OpenIdTokenGuard),
    DeclaresAuthority({ permission: 'openid', tenant: 'none' }),
  );
