import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { AccessTokenValidator, ADMIN_SCOPE, BearerError, isAdminToken } from '@platform/domain';
import { readBearerToken } from '@platform/http';
import type { FastifyRequest } from 'fastify';

/**
 * The control plane checks admin tokens itself, against its own keys and revocation table,
 * even though the backend already did: it never trusts the network it sits on.
 */
@Injectable()
export class AdminApiGuard implements CanActivate {
  constructor(private readonly validator: AccessTokenValidator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const claims = await this.validator.validate(readBearerToken(request.headers.authorization));
    if (!claims) throw new BearerError('invalid_token', 'The access token is invalid, expired or revoked');
    if (!isAdminToken(claims))
      throw new BearerError('insufficient_scope', 'An admin token is required', ADMIN_SCOPE);
    return true;
  }
}
