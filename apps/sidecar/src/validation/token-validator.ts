import { Inject, Injectable } from '@nestjs/common';
import { InvalidClaimError, tokenClaimsOf, type TokenClaims } from '@platform/grpc';
import {
  errors,
  jwtVerify,
  type CryptoKey,
  type JWTHeaderParameters,
  type JWTPayload,
  type JWTVerifyOptions,
} from 'jose';
import { CLOCK } from '../clock';
import {
  epochSeconds,
  MAX_ACCESS_TOKEN_LENGTH,
  REQUIRED_ACCESS_TOKEN_CLAIMS,
  type Clock,
} from '@platform/domain';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';
import { SidecarError } from '../errors';
import { ALLOWED_ALGORITHMS, KeyCache } from '../keys/key-cache';
import { DenyList } from '@platform/domain';
import { VerifiedTokenCache } from './verified-token-cache';

const reject = {
  unknownKey: () => new SidecarError('unknown_key', 'unknown key'),
  revoked: () => new SidecarError('token_revoked', 'token revoked'),
  claim: (message: string) => new SidecarError('claim_invalid', message),
};

/**
 * Validates an access token (RFC 9068 profile, docs/internal-api.md): signature by a trusted
 * key with RS256/ES256/PS256, `typ: at+jwt`, issuer and audience, exp, the required claims,
 * then the deny-list. Throws `SidecarError`; never logs or echoes the token.
 *
 * A token seen before skips the signature check and the parsing (VerifiedTokenCache) as long as
 * the key that verified it is still the trusted key for its `kid` and `alg` and it has not
 * expired; the deny-list is consulted on every call either way.
 */
@Injectable()
export class TokenValidator {
  private readonly options: JWTVerifyOptions;
  private readonly verified: VerifiedTokenCache;

  constructor(
    private readonly keys: KeyCache,
    private readonly denyList: DenyList,
    @Inject(SIDECAR_CONFIG) config: SidecarConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.options = {
      algorithms: [...ALLOWED_ALGORITHMS],
      typ: 'at+jwt',
      issuer: config.issuer,
      audience: config.issuer,
      requiredClaims: [...REQUIRED_ACCESS_TOKEN_CLAIMS],
    };
    this.verified = new VerifiedTokenCache(config.verifiedTokenCacheSize);
  }

  async validate(token: string): Promise<TokenClaims> {
    if (token === '') throw new SidecarError('token_missing', 'token is empty');
    if (token.length > MAX_ACCESS_TOKEN_LENGTH) throw new SidecarError('token_malformed', 'token too large');

    const claims = this.verifiedBefore(token) ?? (await this.verify(token));
    if (this.denyList.revocationOf(claims) !== undefined) throw reject.revoked();
    return claims;
  }

  /** The claims of a token that passed `verify` before, while its key is trusted and it is unexpired. */
  private verifiedBefore(token: string): TokenClaims | undefined {
    const hit = this.verified.get(token);
    if (hit === undefined) return undefined;
    // Same rule as jose's: expired once exp <= now (whole seconds).
    if (hit.claims.exp > epochSeconds(this.clock) && this.keys.find(hit.kid, hit.alg) === hit.key) {
      return hit.claims;
    }
    this.verified.delete(token);
    return undefined;
  }

  /** Signature, header and claims; a token that passes is remembered with the key that verified it. */
  private async verify(token: string): Promise<TokenClaims> {
    let payload: JWTPayload;
    let header: JWTHeaderParameters;
    let key: unknown;
    try {
      ({
        payload,
        protectedHeader: header,
        key,
      } = await jwtVerify(token, this.resolveKey, {
        ...this.options,
        currentDate: this.clock.now(),
      }));
    } catch (error) {
      throw asSidecarError(error);
    }
    const claims = claimsOf(payload);
    this.verified.set(token, { claims, kid: header.kid as string, alg: header.alg, key: key as CryptoKey });
    return claims;
  }

  /** jose calls this after checking `alg` against the allowed list, before verifying. */
  private readonly resolveKey = (header: JWTHeaderParameters): CryptoKey | Promise<CryptoKey> => {
    const { kid, alg } = header;
    if (typeof kid !== 'string' || kid === '') throw reject.unknownKey();
    const key = this.keys.find(kid, alg);
    if (key) return key;
    if (this.keys.has(kid)) throw new SidecarError('signature_invalid', 'key does not match alg');
    return this.keys.refreshForUnknownKid().then(() => {
      const refreshed = this.keys.find(kid, alg);
      if (refreshed) return refreshed;
      throw this.keys.has(kid)
        ? new SidecarError('signature_invalid', 'key does not match alg')
        : reject.unknownKey();
    });
  };
}

/** The verified payload as TokenClaims; a claim of the wrong type is refused. */
function claimsOf(payload: JWTPayload): TokenClaims {
  try {
    return tokenClaimsOf(payload);
  } catch (error) {
    throw error instanceof InvalidClaimError ? reject.claim(error.message) : error;
  }
}

/** jose's failures as our codes, with short reasons for the UNAUTHENTICATED message. */
function asSidecarError(error: unknown): Error {
  if (error instanceof SidecarError) return error;
  if (!(error instanceof errors.JOSEError)) return error as Error;
  switch (error.code) {
    case errors.JWTExpired.code:
      return new SidecarError('token_expired', 'token expired');
    case errors.JWTClaimValidationFailed.code: {
      const { claim, reason } = error as errors.JWTClaimValidationFailed;
      if (claim === 'nbf') return new SidecarError('token_not_yet_valid', 'token not yet valid');
      if (claim === 'typ') return reject.claim('wrong typ');
      if (claim === 'iss') return reject.claim(reason === 'missing' ? 'missing claim iss' : 'wrong issuer');
      if (claim === 'aud') return reject.claim(reason === 'missing' ? 'missing claim aud' : 'wrong audience');
      return reject.claim(reason === 'missing' ? `missing claim ${claim}` : `invalid claim ${claim}`);
    }
    case errors.JWSSignatureVerificationFailed.code:
      return new SidecarError('signature_invalid', 'signature invalid');
    case errors.JOSEAlgNotAllowed.code:
      return new SidecarError('algorithm_not_allowed', 'algorithm not allowed');
    case errors.JOSENotSupported.code:
    case errors.JWSInvalid.code:
    case errors.JWTInvalid.code:
      return new SidecarError('token_malformed', 'malformed token');
    default:
      return new SidecarError('token_malformed', 'malformed token');
  }
}
