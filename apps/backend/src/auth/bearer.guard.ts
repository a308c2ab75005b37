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
import { BearerError } from '@platform/domain';
import { readAccessToken } from '@platform/http';
import type { FastifyRequest } from 'fastify';
import { SidecarClient } from '../clients/sidecar.client';
import { asDpopChallenge, DpopResourceCheck } from './dpop-resource-check';
import { LocalTokenVerifier } from './local-token-verifier';
import { ValidatedTokenCache } from './validated-token-cache';

export type AuthenticatedRequest = FastifyRequest & { claims?: TokenClaims };

/** RFC 9449 section 7.2: a bound token is never accepted as a bearer token. */
const BOUND_AS_BEARER = new BearerError(
  'invalid_token',
  'The access token is DPoP-bound: present it as DPoP with a proof',
);

/**
 * Any valid access token, as the local sidecar judges it (signature, exp, deny-list, app
 * still registered). Missing: 401 bare challenge; refused: 401 invalid_token; sidecar down: 503.
 * While the sidecar's invalidation stream is live, a token accepted before is answered from
 * ValidatedTokenCache and a new one is accepted by LocalTokenVerifier (one signature check);
 * anything else asks the sidecar. The claims are attached to the request (`@Claims()`).
 *
 * DPoP (RFC 9449 section 7): `Authorization: DPoP <token>` with a `DPoP` proof takes its own
 * path (DpopResourceCheck, on every request: the cache keeps claims, never a proof); a bound
 * token presented as Bearer is refused (invalid_token), so is an unbound one presented as DPoP.
 */
@Injectable()
export class BearerGuard implements CanActivate {
  constructor(
    private readonly sidecar: SidecarClient,
    private readonly cache: ValidatedTokenCache,
    private readonly verifier: LocalTokenVerifier,
    private readonly dpop: DpopResourceCheck,
  ) {}

  /** Synchronous unless the sidecar is asked: Nest awaits only a guard that returns a promise. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const presented = readAccessToken(request.headers.authorization);
    if (presented.dpop) return this.activateDpop(request, presented.token);
    const token = presented.token;
    const claims = this.cache.get(token) ?? this.verifyHere(token);
    if (claims === undefined) {
      return this.validate(token).then((validated) => {
        request.claims = validated;
        return true;
      });
    }
    // The sidecar refuses a bound token without a proof itself; judged here, the same rule.
    if (claims.cnf) throw BOUND_AS_BEARER;
    request.claims = claims;
    return true;
  }

  /** `Authorization: DPoP`: the token as on the Bearer path, then its proof for this request. */
  private activateDpop(request: AuthenticatedRequest, token: string): boolean | Promise<boolean> {
    const presentation = this.dpop.presentationOf(request);
    const claims = this.cache.get(token) ?? this.verifyHere(token);
    if (claims !== undefined) {
      this.dpop.check(token, claims, presentation);
      request.claims = claims;
      return true;
    }
    // The sidecar checks the binding and the proof too (its replay cache, not ours): ours is
    // checked as well, so the proof cannot be replayed here once the claims are cached.
    const generation = this.cache.generation;
    return this.sidecar.validateToken(token, '', presentation).then(
      (validated) => {
        this.dpop.check(token, validated, presentation);
        this.cache.remember(token, validated, generation);
        request.claims = validated;
        return true;
      },
      (error: unknown) => {
        throw asDpopChallenge(error);
      },
    );
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
