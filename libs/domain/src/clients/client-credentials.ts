import { OAuthError } from '../errors';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/** What the client presented, before anything is checked against storage. */
export interface PresentedClientCredentials {
  clientId: string;
  clientSecret: string | undefined;
  method: ClientAuthMethod;
}

/**
 * Reads client credentials from the form (client_secret_post, or client_id alone for public
 * clients) or an `Authorization: Basic` header (RFC 6749 section 2.3.1). Using both at once
 * is refused, as the RFC requires.
 */
export function readClientCredentials(
  params: Record<string, string | undefined>,
  authorization: string | undefined,
): PresentedClientCredentials {
  const basic = basicCredentials(authorization);
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
