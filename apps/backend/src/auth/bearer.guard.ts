import {
  applyDecorators,
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { DeclaresAuthority } from '@platform/contract';
import type { TokenClaims } from '@platform/grpc';
import { readBearerToken } from '@platform/http';
import type { FastifyRequest } from 'fastify';
import { SidecarClient } from '../clients/sidecar.client';
import { LocalTokenVerifier } from './local-token-verifier';
import { ValidatedTokenCache } from './validated-token-cache';

export type AuthenticatedRequest = FastifyRequest & { claims?: TokenClaims };

/**
 * Any valid access token, as the local sidecar judges it (signature, exp, deny-list, app
 * still registered). Missing: 401 bare challenge; refused: 401 invalid_token; sidecar down: 503.
 * While the sidecar's invalidation stream is live, a token accepted before is answered from
 * ValidatedTokenCache and a new one is accepted by LocalTokenVerifier (one signature check);
 * anything else asks the sidecar. The claims are attached to the request (`@Claims()`).
 */
@Injectable()
export class BearerGuard implements CanActivate {
  constructor(
    private readonly sidecar: SidecarClient,
    private readonly cache: ValidatedTokenCache,
    private readonly verifier: LocalTokenVerifier,
  ) {}

  /** Synchronous unless the sidecar is asked: Nest awaits only a guard that returns a promise. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = readBearerToken(request.headers.authorization);
    const claims = this.cache.get(token) ?? this.verifyHere(token);
    if (claims === undefined) {
      return this.validate(token).then((validated) => {
        request.claims = validated;
        return true;
      });
    }
    request.claims = claims;
    return true;
  }

  /** Judged with the streamed keys and deny-list, synchronously: nothing can change meanwhile. */
  private verifyHere(token: string): TokenClaims | undefined {
    const claims = this.verifier.verify(token);
    if (claims !== undefined) this.cache.remember(token, claims, this.cache.generation);
    return claims;
  }

  /** Asks the sidecar; keeps an acceptance unless an invalidation arrived while it was asked. */
  private async validate(token: string): Promise<TokenClaims> {
    const generation = this.cache.generation;
    const claims = await this.sidecar.validateToken(token);
    this.cache.remember(token, claims, generation);
    return claims;
  }
}

/** Any valid access token, declared as such (`x-authority` `token`). */
export const RequireToken = () =>
  applyDecorators(UseGuards(BearerGuard), DeclaresAuthority({ permission: 'token', tenant: 'none' }));

export const Claims = createParamDecorator((_: unknown, context: ExecutionContext): TokenClaims => {
  const claims = context.switchToHttp().getRequest<AuthenticatedRequest>().claims;
  if (claims === undefined) throw new Error('@Claims() used on a route without BearerGuard');
  return claims;
});
