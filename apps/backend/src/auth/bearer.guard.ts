import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import type { TokenClaims } from '@platform/grpc';
import { readBearerToken } from '@platform/http';
import type { FastifyRequest } from 'fastify';
import { SidecarClient } from '../clients/sidecar.client';

export type AuthenticatedRequest = FastifyRequest & { claims?: TokenClaims };

/**
 * Any valid access token, as the local sidecar judges it (signature, exp, deny-list, app
 * still registered). Missing: 401 bare challenge; refused: 401 invalid_token; sidecar down: 503.
 * The claims are attached to the request (`@Claims()`).
 */
@Injectable()
export class BearerGuard implements CanActivate {
  constructor(private readonly sidecar: SidecarClient) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = readBearerToken(request.headers.authorization);
    request.claims = await this.sidecar.validateToken(token, request.id);
    return true;
  }
}

export const Claims = createParamDecorator((_: unknown, context: ExecutionContext): TokenClaims => {
  const claims = context.switchToHttp().getRequest<AuthenticatedRequest>().claims;
  if (claims === undefined) throw new Error('@Claims() used on a route without BearerGuard');
  return claims;
});
