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
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    /** Why, for the log only: never sent to the client. */
    readonly detail?: string,
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
