import { OAuthError } from '../errors';
import { assertedClientId, CLIENT_ASSERTION_TYPE } from './client-assertion';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

/** What the client presented, before anything is checked against storage. */
export interface PresentedClientCredentials {
  clientId: string;
  clientSecret: string | undefined;
  method: ClientAuthMethod;
  /** private_key_jwt: the signed `client_assertion` (RFC 7523 section 2.2), checked by the authenticator. */
  assertion?: string;
}

/**
 * Reads client credentials from the form (client_secret_post, a `client_assertion` for
 * private_key_jwt, or client_id alone for public clients) or an `Authorization: Basic` header
 * (RFC 6749 section 2.3.1). Using two at once is refused, as the RFC requires.
 */
export function readClientCredentials(
  params: Record<string, string | undefined>,
  authorization: string | undefined,
): PresentedClientCredentials {
  const basic = basicCredentials(authorization);
  if (params.client_assertion !== undefined || params.client_assertion_type !== undefined) {
    if (basic || params.client_secret !== undefined) {
      throw new OAuthError('invalid_request', 'client authenticated with more than one method');
    }
    return assertionCredentials(params);
  }
  if (basic) {
    if (params.client_secret !== undefined) {
      throw new OAuthError('invalid_request', 'client authenticated with more than one method');
    }
    if (params.client_id !== undefined && params.client_id !== basic.clientId) {
      throw new OAuthError('invalid_request', 'client_id does not match the Basic credentials');
    }
    return { ...basic, method: 'client_secret_basic' };
  }
  const clientId = params.client_id;
  if (!clientId) throw new OAuthError('invalid_client', 'client authentication failed');
  const clientSecret = params.client_secret;
  return clientSecret !== undefined
    ? { clientId, clientSecret, method: 'client_secret_post' }
    : { clientId, clientSecret: undefined, method: 'none' };
}

/**
 * RFC 7521 section 4.2 / RFC 7523 section 2.2: `client_assertion_type` names the JWT profile, and
 * `client_id`, optional, must then be the client the assertion names (checked with the signature:
 * `iss` and `sub` must both be it).
 */
function assertionCredentials(params: Record<string, string | undefined>): PresentedClientCredentials {
  const { client_assertion: assertion, client_assertion_type: type } = params;
  if (type !== CLIENT_ASSERTION_TYPE) {
    throw new OAuthError('invalid_request', `client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`);
  }
  if (!assertion) throw new OAuthError('invalid_request', 'client_assertion is required');
  const clientId = params.client_id ?? assertedClientId(assertion);
  if (!clientId) throw new OAuthError('invalid_client', 'client authentication failed');
  return { clientId, clientSecret: undefined, method: 'private_key_jwt', assertion };
}

/**
 * The client id and secret of an `Authorization: Basic` header (RFC 6749 section 2.3.1), decoded;
 * undefined for any other scheme, invalid_client when malformed.
 */
export function basicCredentials(
  authorization: string | undefined,
): { clientId: string; clientSecret: string } | undefined {
  if (authorization === undefined || !/^Basic\b/i.test(authorization)) return undefined;
  const basic = authorization.match(/^Basic\s+(\S+)\s*$/i);
  if (!basic) throw new OAuthError('invalid_client', 'malformed Basic credentials');
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new OAuthError('invalid_client', 'malformed Basic credentials');
  return {
    clientId: formDecode(decoded.slice(0, colon)),
    clientSecret: formDecode(decoded.slice(colon + 1)),
  };
}

/** Basic credentials are form-urlencoded before base64 (RFC 6749 section 2.3.1). */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw new OAuthError('invalid_client', 'malformed Basic credentials');
  }
}
