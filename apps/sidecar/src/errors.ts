/**
 * Typed errors of the sidecar. Services throw `SidecarError`; the gRPC layer translates the
 * code in one place (`grpc/status-mapper.ts`). Messages are short and never contain a token.
 */
export type SidecarErrorCode =
  /** The request carried no token at all. */
  | 'token_missing'
  /** Not a compact JWS, bad JSON, too large. */
  | 'token_malformed'
  | 'token_expired'
  | 'token_not_yet_valid'
  /** On the deny-list: by jti, by client deletion, by user deprovisioning or by grant. */
  | 'token_revoked'
  | 'signature_invalid'
  /** `alg` outside RS256/ES256/PS256 (`none`, HS256, ...). */
  | 'algorithm_not_allowed'
  /** `kid` absent from the key set even after a refresh. */
  | 'unknown_key'
  /** Wrong `typ`, issuer or audience; a required claim missing or of the wrong type. */
  | 'claim_invalid'
  /** Missing or wrong `x-internal-token` on an internal RPC. */
  | 'internal_token_invalid'
  | 'control_plane_unavailable'
  /** The control plane answered, but refused (4xx) or answered something unreadable. */
  | 'control_plane_rejected'
  /** Keys or deny-list not loaded yet: fail closed. */
  | 'not_ready'
  /** A limit of the sidecar's own refused the call; `retryAfterSeconds` says for how long. */
  | 'rate_limited'
  /** A hard quota of the tenant's plan refused the units; `retryAfterSeconds`: until its window ends. */
  | 'quota_exhausted'
  /** The Redis quotas are counted in did not answer: nothing was counted. */
  | 'counter_unavailable'
  /**
   * DPoP (RFC 9449): a bound token without a proof, an unbound one with a proof, or a proof
   * refused (the message then starts `invalid_dpop_proof:`).
   */
  | 'dpop_invalid';

export class SidecarError extends Error {
  override readonly name = 'SidecarError';
  constructor(
    readonly code: SidecarErrorCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
