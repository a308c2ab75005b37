import { createParamDecorator, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import {
  AccessTokenValidator,
  ADMIN_SCOPE,
  BearerError,
  isAdminToken,
  principalOfClaims,
  type AccessTokenClaims,
  type AuditActor,
} from '@platform/domain';
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
    const request = context.switchToHttp().getRequest<AdminRequest>();
    const claims = await this.validator.validate(readBearerToken(request.headers.authorization));
    if (!claims) throw new BearerError('invalid_token', 'The access token is invalid, expired or revoked');
    if (!isAdminToken(claims))
      throw new BearerError('insufficient_scope', 'An admin token is required', ADMIN_SCOPE);
    request.adminClaims = claims;
    return true;
  }
}

type AdminRequest = FastifyRequest & { adminClaims?: AccessTokenClaims };

/** The admin token's claims (a live listing ends at its `exp`). */
export const AdminClaims = createParamDecorator(
  (_: unknown, context: ExecutionContext): AccessTokenClaims => {
    const claims = context.switchToHttp().getRequest<AdminRequest>().adminClaims;
    if (claims === undefined) throw new Error('@AdminClaims() used on a route without AdminApiGuard');
    return claims;
  },
);

/** The administrator behind the request, as the audit log names it: a user, or the admin app. */
export const AdminActor = createParamDecorator((_: unknown, context: ExecutionContext): AuditActor => {
  const claims = context.switchToHttp().getRequest<AdminRequest>().adminClaims;
  if (claims === undefined) throw new Error('@AdminActor() used on a route without AdminApiGuard');
  return principalOfClaims(claims).kind === 'user'
    ? { kind: 'user', id: claims.sub }
    : { kind: 'app', id: claims.client_id };
});
