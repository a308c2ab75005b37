import {
  BearerError,
  DpopChallengeError,
  DpopProofError,
  DpopProofVerifier,
  DpopReplayCache,
  epochSeconds,
} from '@platform/domain';
import type { TokenClaims } from '@platform/grpc';
import type { FastifyRequest } from 'fastify';

/** What a DPoP request presents beside its token, as the sidecar's ValidateToken takes it. */
export interface DpopPresentation {
  proof: string;
  method: string;
  url: string;
}

/**
 * The resource side of DPoP at the backend (RFC 9449 section 7, docs/tokens.md "DPoP"): a bound
 * token (`cnf.jkt`) is accepted only as `Authorization: DPoP` with a proof of its key for this
 * request, checked here on every request, whether its claims came from the validation cache,
 * the local verifier or the sidecar (the proof is per request; the cache keeps claims only).
 * Proof ids are remembered by this process for the `iat` window (DpopReplayCache); keys are
 * imported once per thumbprint. The plain Bearer path never comes here.
 */
export class DpopResourceCheck {
  private readonly verifier: DpopProofVerifier;

  constructor(
    private readonly issuer: string,
    nowSeconds: () => number = () => epochSeconds(),
  ) {
    this.verifier = new DpopProofVerifier(new DpopReplayCache(), nowSeconds);
  }

  /** The proof and the request it must name; a missing or repeated `DPoP` header is refused. */
  presentationOf(request: Pick<FastifyRequest, 'headers' | 'method' | 'url'>): DpopPresentation {
    const proof = request.headers.dpop;
    if (proof === undefined || proof === '') {
      throw new DpopChallengeError('invalid_dpop_proof', 'a DPoP proof is required with a DPoP token');
    }
    if (Array.isArray(proof)) throw new DpopChallengeError('invalid_dpop_proof', 'send one DPoP header');
    // The public URL the client addressed: the issuer's origin and the path, without the query.
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    return { proof, method: request.method, url: `${this.issuer}${path}` };
  }

  /** Refuses unless `claims` are bound and `presented` is a fresh proof of their key for this request. */
  check(token: string, claims: TokenClaims, presented: DpopPresentation): void {
    const jkt = claims.cnf?.jkt;
    if (jkt === undefined) {
      throw new DpopChallengeError(
        'invalid_token',
        'The access token is not DPoP-bound: present it as Bearer',
      );
    }
    try {
      this.verifier.verify({ ...presented, accessToken: token, jkt });
    } catch (error) {
      if (error instanceof DpopProofError)
        throw new DpopChallengeError(error.code, error.description, error.nonce);
      throw error;
    }
  }
}

/** The sidecar's refusal of a DPoP request as the DPoP challenge (RFC 9449 section 7.1). */
export function asDpopChallenge(error: unknown): unknown {
  if (!(error instanceof BearerError)) return error;
  const proofFault = /^invalid_dpop_proof: (.*)$/.exec(error.description);
  return proofFault
    ? new DpopChallengeError('invalid_dpop_proof', proofFault[1])
    : new DpopChallengeError('invalid_token', error.description);
}
