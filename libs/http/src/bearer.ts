import { BearerError, DpopChallengeError } from '@platform/domain';

/**
 * No credential at all on a Bearer-protected route. RFC 6750 section 3.1: the challenge then
 * carries no error attribute, only `Bearer realm="oauth"`.
 */
export class MissingBearerTokenError extends BearerError {
  constructor() {
    super('invalid_token', 'An access token is required');
  }
}

/** `DPoP <b64token>` (RFC 9449 section 7.1), as Bearer's. */
const DPOP_CREDENTIALS = /^\s*dpop\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

/** An access token as presented: `dpop` when its scheme was DPoP (a proof must come with it). */
export interface PresentedToken {
  token: string;
  dpop: boolean;
}

/**
 * The access token of an `Authorization: Bearer <token>` or `Authorization: DPoP <token>` header
 * (RFC 9449 section 7.1). Bearer is tried first with the one regular expression it always took;
 * otherwise as readBearerToken (a malformed DPoP header: invalid_request).
 */
export function readAccessToken(authorization: string | string[] | undefined): PresentedToken {
  const single =
    Array.isArray(authorization) && authorization.length === 1 ? authorization[0] : authorization;
  if (typeof single === 'string') {
    const bearer = BEARER_CREDENTIALS.exec(single)?.[1];
    if (bearer !== undefined) return { token: bearer, dpop: false };
    const dpop = DPOP_CREDENTIALS.exec(single)?.[1];
    if (dpop !== undefined) return { token: dpop, dpop: true };
    if (SCHEME.exec(single)?.[1].toLowerCase() === 'dpop') {
      throw new DpopChallengeError(
        'invalid_request',
        'The Authorization header is not of the form "DPoP <token>"',
      );
    }
  }
  return { token: readBearerToken(authorization), dpop: false };
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
