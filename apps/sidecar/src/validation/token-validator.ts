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
  DpopProofError,
  DpopProofVerifier,
  DpopReplayCache,
  epochSeconds,
  MAX_ACCESS_TOKEN_LENGTH,
  REQUIRED_ACCESS_TOKEN_CLAIMS,
  type Clock,
} from '@platform/domain';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';
import { SidecarError } from '../errors';
import { ALLOWED_ALGORITHMS, KeyCache } from '../keys/key-cache';
import { DenyList } from '@platform/domain';
import { VerifiedTokenCache, type VerifiedToken } from './verified-token-cache';

const reject = {
  unknownKey: () => new SidecarError('unknown_key', 'unknown key'),
  revoked: () => new SidecarError('token_revoked', 'token revoked'),
  claim: (message: string) => new SidecarError('claim_invalid', message),
  dpop: (message: string) => new SidecarError('dpop_invalid', message),
};

/** What a DPoP request presented with its token: the proof and the request it must name. */
export interface DpopPresentation {
  /** The `DPoP` header, '' when the token came as Bearer. */
  proof: string;
  method: string;
  url: string;
}

/**
 * Validates an access token (RFC 9068 profile, docs/internal-api.md): signature by a trusted
 * key with RS256/ES256/PS256, `typ: at+jwt`, issuer, exp, the required claims, the audience,
 * then the deny-list. Throws `SidecarError`; never logs or echoes the token.
 *
 * The audience (RFC 8707): a caller that names one accepts only tokens for it; one that names
 * none, only tokens for the issuer (the platform's own API), so a token restricted to a
 * resource server is refused everywhere else.
 *
 * A token seen before skips the signature check and the parsing (VerifiedTokenCache) as long as
 * the key that verified it is still the trusted key for its `kid` and `alg` and it has not
 * expired; the audience and the deny-list are checked on every call either way.
 */
@Injectable()
export class TokenValidator {
  private readonly options: JWTVerifyOptions;
  private readonly issuer: string;
  private readonly verified: VerifiedTokenCache;
  /** Proofs of bound tokens; their ids remembered by this sidecar for the `iat` window. */
  private readonly dpop: DpopProofVerifier;

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
      // The audience is checked per call (it depends on the caller), on cached tokens too.
      requiredClaims: [...REQUIRED_ACCESS_TOKEN_CLAIMS, 'aud'],
    };
    this.issuer = config.issuer;
    this.verified = new VerifiedTokenCache(config.verifiedTokenCacheSize);
    this.dpop = new DpopProofVerifier(new DpopReplayCache(), () => epochSeconds(this.clock));
  }

  /**
   * The token's claims when it is valid for `audience` (the resource the caller serves; '' or
   * absent: the issuer). `aud` in the answer is that audience.
   */
  async validate(token: string, audience = '', presented?: DpopPresentation): Promise<TokenClaims> {
    if (token === '') throw new SidecarError('token_missing', 'token is empty');
    if (token.length > MAX_ACCESS_TOKEN_LENGTH) throw new SidecarError('token_malformed', 'token too large');

    const { claims, audiences } = this.verifiedBefore(token) ?? (await this.verify(token));
    const expected = audience || this.issuer;
    if (!audiences.includes(expected)) throw reject.claim('wrong audience');
    if (this.denyList.revocationOf(claims) !== undefined) throw reject.revoked();
    // Per call, cached or not: a proof is good for one request only.
    this.checkBinding(token, claims, presented);
    // Only a token whose `aud` is a list can differ: the answer names the audience it was accepted for.
    return claims.aud === expected ? claims : Object.freeze({ ...claims, aud: expected });
  }

  /**
   * RFC 9449 section 7: a bound token (`cnf.jkt`) only with a proof of its key for this request,
   * an unbound one only without a proof (presented as Bearer).
   */
  private checkBinding(token: string, claims: TokenClaims, presented: DpopPresentation | undefined): void {
    const jkt = claims.cnf?.jkt;
    if (presented === undefined || presented.proof === '') {
      if (jkt !== undefined) throw reject.dpop('the token is DPoP-bound: present it with a DPoP proof');
      return;
    }
    if (jkt === undefined) throw reject.dpop('the token is not DPoP-bound: present it as Bearer');
    try {
      this.dpop.verify({ ...presented, accessToken: token, jkt });
    } catch (error) {
      if (error instanceof DpopProofError) throw reject.dpop(`invalid_dpop_proof: ${error.description}`);
      throw error;
    }
  }

  /** A token that passed `verify` before, while its key is trusted and it is unexpired. */
  private verifiedBefore(token: string): VerifiedToken | undefined {
    const hit = this.verified.get(token);
    if (hit === undefined) return undefined;
    // Same rule as jose's: expired once exp <= now (whole seconds).
    if (hit.claims.exp > epochSeconds(this.clock) && this.keys.find(hit.kid, hit.alg) === hit.key) {
      return hit;
    }
    this.verified.delete(token);
    return undefined;
  }

  /**
   * Signature, header and claims, whatever the audience; a token that passes is remembered with
   * the key that verified it.
   */
  private async verify(token: string): Promise<VerifiedToken> {
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
    const verified: VerifiedToken = {
      claims: claimsOf(payload),
      audiences: audiencesOf(payload.aud),
      kid: header.kid as string,
      alg: header.alg,
      key: key as CryptoKey,
    };
    this.verified.set(token, verified);
    return verified;
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

/** The token's `aud` as a list (RFC 7519 allows one string or several). */
function audiencesOf(aud: unknown): readonly string[] {
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud) && aud.every((one) => typeof one === 'string')) return aud as string[];
  throw reject.claim('invalid claim aud');
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
