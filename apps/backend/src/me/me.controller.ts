import { Controller, Get, UseGuards } from '@nestjs/common';
import type { TokenClaims } from '@platform/grpc';
import { BearerGuard, Claims } from '../auth/bearer.guard';

export interface MeResponse {
  sub: string;
  client_id: string;
  scope: string;
  tenant?: string;
  roles?: string[];
  exp: number;
}

/** Who the token says the caller is; user-token claims only when present. */
export function meFromClaims(claims: TokenClaims): MeResponse {
  const me: MeResponse = {
    sub: claims.sub,
    client_id: claims.client_id,
    scope: claims.scope,
    exp: claims.exp,
  };
  if (claims.tenant) me.tenant = claims.tenant;
  if (claims.roles && claims.roles.length > 0) me.roles = claims.roles;
  return me;
}

/** A protected demo resource and its unprotected twin (the benchmark compares the two). */
@Controller('v1')
export class MeController {
  @Get('me')
  @UseGuards(BearerGuard)
  me(@Claims() claims: TokenClaims): MeResponse {
    return meFromClaims(claims);
  }

  @Get('ping')
  ping(): { ok: true } {
    return { ok: true };
  }
}
