/**
 * Typed domain errors. Services throw these; each transport (HTTP filter, gRPC mapper)
 * translates them. Nothing in the domain knows about HTTP status codes.
 */

/**
 * RFC 6749 section 5.2 / 4.1.2.1 error codes, plus RFC 7009's and RFC 8707's `invalid_target` and
 * OpenID Connect's authorization errors.
 */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'access_denied',
  'unsupported_response_type',
  'unsupported_token_type',
  'invalid_target',
  'server_error',
  'temporarily_unavailable',
  // OpenID Connect Core section 3.1.2.6: answered at the authorization endpoint.
  'login_required',
  'consent_required',
  'request_not_supported',
  'request_uri_not_supported',
  'registration_not_supported',
  // RFC 8628 section 3.5: answered to a device polling the token endpoint.
  'authorization_pending',
  'slow_down',
  'expired_token',
  // RFC 9449 section 5: a DPoP proof refused at the token endpoint, or a server nonce asked for.
  'invalid_dpop_proof',
  'use_dpop_nonce',
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    /** Why, for the log only: never sent to the client. */
    readonly detail?: string,
    /** RFC 9449 section 8: the nonce a `use_dpop_nonce` answer hands out as `DPoP-Nonce`. */
    readonly dpopNonce?: string,
  ) {
    super(`${code}: ${description}`);
  }
}

/**
 * Every refused grant answers RFC 6749 section 5.2's own words, so the answer never tells which
 * check failed (that a code exists but belongs to another client, for one); the reason is
 * logged with the request's correlation id.
 */
export const INVALID_GRANT_DESCRIPTION =
  'The authorization grant or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client';

export const invalidGrant = (reason: string): OAuthError =>
  new OAuthError('invalid_grant', INVALID_GRANT_DESCRIPTION, reason);

/** Error codes of the non-OAuth surface (registry, scopes, admin). */
export type DomainErrorCode =
  | 'not_found'
  | 'conflict'
  | 'validation_failed'
  | 'unauthenticated'
  | 'forbidden'
  | 'unavailable'
  | 'too_many_requests';

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A hard quota used up (docs/plans.md): 429 with Retry-After, an OAuth error at the token endpoint. */
export class QuotaExhaustedError extends DomainError {
  constructor(
    message: string,
    /** Until the window ends. */
    readonly retryAfterSeconds: number,
  ) {
    super('too_many_requests', message);
  }
}

export const notFound = (what: string): DomainError => new DomainError('not_found', `${what} not found`);
export const conflict = (message: string): DomainError => new DomainError('conflict', message);
export const validationFailed = (message: string): DomainError =>
  new DomainError('validation_failed', message);

/** RFC 6750 bearer token errors for protected resources. */
export const BEARER_ERROR_CODES = ['invalid_request', 'invalid_token', 'insufficient_scope'] as const;
export type BearerErrorCode = (typeof BEARER_ERROR_CODES)[number];

export class BearerError extends Error {
  override readonly name = 'BearerError';
  constructor(
    readonly code: BearerErrorCode,
    readonly description: string,
    /** Scope needed, reported in WWW-Authenticate for insufficient_scope. */
    readonly requiredScope?: string,
  ) {
    super(`${code}: ${description}`);
  }
}

/**
 * A refusal of `Authorization: DPoP <token>` at a protected resource (RFC 9449 section 7.1):
 * answered with the `DPoP` challenge (`WWW-Authenticate: DPoP error=..., algs=...`).
 * `invalid_token` for a token that is not valid or not bound, `invalid_dpop_proof` for the
 * proof's fault, `use_dpop_nonce` with the nonce to use, `invalid_request` for a malformed header.
 */
export type DpopChallengeCode = 'invalid_request' | 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce';

export class DpopChallengeError extends Error {
  override readonly name = 'DpopChallengeError';
  constructor(
    readonly code: DpopChallengeCode,
    readonly description: string,
    readonly nonce?: string,
  ) {
    super(`${code}: ${description}`);
  }
}
