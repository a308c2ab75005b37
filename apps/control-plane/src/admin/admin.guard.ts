import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { AccessTokenValidator, ADMIN_SCOPE, BearerError, parseScope, scopesCover } from '@platform/domain';
import { readBearerToken } from '@platform/http';
import type { FastifyRequest } from 'fastify';

/**
 * The control plane checks admin tokens itself, against its own keys and revocation table,
 * even though the backend already did: it never trusts the network it sits on.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly validator: AccessTokenValidator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const claims = await this.validator.validate(readBearerToken(request.headers.authorization));
    if (!claims) throw new BearerError('invalid_token', 'The access token is invalid, expired or revoked');
    const admin =
      scopesCover(parseScope(claims.scope), ADMIN_SCOPE) || (claims.roles ?? []).includes('global_admin');
    if (!admin) throw new BearerError('insufficient_scope', 'An admin token is required', ADMIN_SCOPE);
    return true;
  }
}
