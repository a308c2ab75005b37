import { Injectable } from '@nestjs/common';
import type { TokenClaims } from '@platform/grpc';
import { SidecarError } from '../errors';
import { Readiness } from '../health/readiness';
import { TokenValidator, type DpopPresentation } from '../validation/token-validator';

/**
 * The one way every RPC that takes a token validates it (ValidateToken, Authorize,
 * ResolveTenant, ValidateIsolation): fail closed while the keys or the deny-list are still
 * loading, then TokenValidator (signature, claims, audience, deny-list). Only ValidateToken and
 * Authorize name an audience; every other RPC accepts tokens for the issuer alone.
 */
@Injectable()
export class TokenClaimsReader {
  constructor(
    private readonly validator: TokenValidator,
    private readonly readiness: Readiness,
  ) {}

  /** `dpop`: the proof a DPoP request presented (ValidateToken, Authorize); absent: a Bearer token. */
  read(token: string, audience = '', dpop?: DpopPresentation): Promise<TokenClaims> {
    if (!this.readiness.ready && token !== '') {
      return Promise.reject(new SidecarError('not_ready', 'sidecar is starting'));
    }
    return this.validator.validate(token, audience, dpop);
  }
}
