import { Controller, Get } from '@nestjs/common';
import { Answers, BearerOperation, MeDto, PingDto, PublicOperation } from '@platform/contract';
import { actorAsIssued, type ImpersonationClaim } from '@platform/domain';
import type { TokenClaims } from '@platform/grpc';
import { Claims, RequireToken } from '../auth/bearer.guard';

/**
 * Who the token says the caller is; user-token claims only when present, and the actor chain and
 * impersonation mode as the token carries them (exchanged and impersonation tokens only).
 */
export function meFromClaims(claims: TokenClaims): MeDto {
  const me: MeDto = {
    sub: claims.sub,
    client_id: claims.client_id,
    scope: claims.scope,
    exp: claims.exp,
  };
  if (claims.tenant) me.tenant = claims.tenant;
  if (claims.roles && claims.roles.length > 0) me.roles = claims.roles;
  if (claims.act) me.act = actorAsIssued(claims.act);
  if (claims.impersonation) me.impersonation = claims.impersonation as ImpersonationClaim;
  return me;
}

/** A protected demo resource and its unprotected twin (the benchmark compares the two). */
@Controller('v1')
export class MeController {
  @Get('me')
  @RequireToken()
  @BearerOperation({
    id: 'getMe',
    tag: 'Platform',
    summary: 'The caller',
    description:
      'Any valid access token: who the token says the caller is. A protected route to try tokens on.',
  })
  @Answers(200, MeDto, 'The caller.')
  me(@Claims() claims: TokenClaims): MeDto {
    return meFromClaims(claims);
  }

  @Get('ping')
  @PublicOperation({
    id: 'ping',
    tag: 'Platform',
    summary: 'Unprotected twin of /v1/me',
    description: 'No credential; the benchmark compares it with `/v1/me` to measure token validation.',
  })
  @Answers(200, PingDto, 'Always.')
  ping(): PingDto {
    return { ok: true };
  }
}
