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

/** RFC 6750 b64token. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The access token of an `Authorization: Bearer <token>` header. No header, or another scheme:
 * MissingBearerTokenError (401, bare challenge). A malformed Bearer header: invalid_request (400).
 */
export function readBearerToken(authorization: string | string[] | undefined): string {
  if (Array.isArray(authorization)) {
    if (authorization.length > 1)
      throw new BearerError('invalid_request', 'Only one Authorization header is allowed');
    authorization = authorization[0];
  }
  if (authorization === undefined || authorization.trim() === '') throw new MissingBearerTokenError();
  const [scheme, ...rest] = authorization.trim().split(/\s+/);
  if (scheme.toLowerCase() !== 'bearer') throw new MissingBearerTokenError();
  if (rest.length !== 1 || !B64TOKEN.test(rest[0])) {
    throw new BearerError('invalid_request', 'The Authorization header is not of the form "Bearer <token>"');
  }
  return rest[0];
}
