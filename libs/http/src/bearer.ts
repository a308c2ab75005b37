import { BearerError } from '@platform/domain';

/**
 * No credential at all on a Bearer-protected route. RFC 6750 section 3.1: the challenge then
 * carries no error attribute, only `Bearer realm="oauth"`.
 */
export class MissingBearerTokenError extends BearerError {
  constructor() {
    super('invalid_token', 'An access token is required');
  }
}

/** `Bearer <b64token>` (RFC 6750 section 2.1), the scheme in any case, spaces around. */
const BEARER_CREDENTIALS = /^\s*bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;
/** The scheme of any credentials: the first word. */
const SCHEME = /^\s*(\S+)/;

/**
 * The access token of an `Authorization: Bearer <token>` header. No header, or another scheme:
 * MissingBearerTokenError (401, bare challenge). A malformed Bearer header: invalid_request (400).
 * Every protected request reads it: one regular expression, no split.
 */
export function readBearerToken(authorization: string | string[] | undefined): string {
  if (Array.isArray(authorization)) {
    if (authorization.length > 1)
      throw new BearerError('invalid_request', 'Only one Authorization header is allowed');
    authorization = authorization[0];
  }
  if (authorization === undefined) throw new MissingBearerTokenError();
  const token = BEARER_CREDENTIALS.exec(authorization)?.[1];
  if (token !== undefined) return token;
  if (SCHEME.exec(authorization)?.[1].toLowerCase() !== 'bearer') throw new MissingBearerTokenError();
  throw new BearerError('invalid_request', 'The Authorization header is not of the form "Bearer <token>"');
}
