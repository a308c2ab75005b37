import type { JSONWebKeySet } from 'jose';
import { validationFailed } from '../errors';
import { checkWebhookUrl, type WebhookUrlPolicy } from '../webhooks/webhook-url-policy';
import {
  appHasSecret,
  TOKEN_ENDPOINT_AUTH_METHODS,
  type Application,
  type AppType,
  type TokenEndpointAuthMethod,
} from './application';

/** At most this many keys in an inline `jwks` (a rotation needs two or three). */
export const CLIENT_JWKS_MAX_KEYS = 10;
/** An inline `jwks` as JSON, at most. */
export const CLIENT_JWKS_MAX_BYTES = 16_384;

/** Members that only a private or symmetric key has: an app registers public keys only. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

export interface ClientAuthInput {
  tokenEndpointAuthMethod?: string;
  jwks?: unknown;
  jwksUri?: string | null;
}

/**
 * How a new app authenticates (RFC 7591 section 2, docs/workload-identity.md): omitted, as before
 * (a secret for every type but `spa`, which has none); `client_secret_basic`/`_post` for an app
 * holding a secret (both are accepted from it); `none` for `spa`; `private_key_jwt` for any other
 * type, with exactly one of `jwks` (public RSA or EC keys, at most 10) or `jwks_uri` (under the
 * webhooks' address rules, checked again at every fetch): such an app gets no secret.
 */
export function checkedClientAuth(
  appType: AppType,
  input: ClientAuthInput,
  urls: WebhookUrlPolicy,
): Pick<Application, 'tokenEndpointAuthMethod' | 'jwks' | 'jwksUri'> {
  const method = input.tokenEndpointAuthMethod;
  const keysGiven = input.jwks != null || input.jwksUri != null;
  if (method === undefined) {
    if (keysGiven)
      throw validationFailed('jwks and jwks_uri need token_endpoint_auth_method private_key_jwt');
    return {};
  }
  if (!(TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(method)) {
    throw validationFailed(
      `token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}`,
    );
  }
  const authMethod = method as TokenEndpointAuthMethod;
  if ((authMethod === 'none') !== !appHasSecret(appType)) {
    throw validationFailed(
      appHasSecret(appType)
        ? `a ${appType} app authenticates: token_endpoint_auth_method none is for spa apps`
        : `a ${appType} app has no credentials: its token_endpoint_auth_method is none`,
    );
  }
  if (authMethod !== 'private_key_jwt') {
    if (keysGiven)
      throw validationFailed('jwks and jwks_uri need token_endpoint_auth_method private_key_jwt');
    return { tokenEndpointAuthMethod: authMethod };
  }
  if ((input.jwks != null) === (input.jwksUri != null)) {
    throw validationFailed('private_key_jwt needs exactly one of jwks and jwks_uri');
  }
  if (input.jwksUri != null) {
    checkWebhookUrl(input.jwksUri, urls);
    return { tokenEndpointAuthMethod: authMethod, jwksUri: input.jwksUri };
  }
  return { tokenEndpointAuthMethod: authMethod, jwks: checkedKeySet(input.jwks) };
}

function checkedKeySet(jwks: unknown): JSONWebKeySet {
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > CLIENT_JWKS_MAX_KEYS) {
    throw validationFailed(`jwks must be a JWK set of 1 to ${CLIENT_JWKS_MAX_KEYS} keys`);
  }
  if (JSON.stringify(jwks).length > CLIENT_JWKS_MAX_BYTES) {
    throw validationFailed(`jwks must be at most ${CLIENT_JWKS_MAX_BYTES} bytes`);
  }
  for (const key of keys as unknown[]) {
    if (key === null || typeof key !== 'object' || Array.isArray(key))
      throw validationFailed('jwks keys must be JWKs');
    const jwk = key as Record<string, unknown>;
    if (jwk.kty !== 'RSA' && jwk.kty !== 'EC') throw validationFailed('jwks keys must be RSA or EC keys');
    if (PRIVATE_MEMBERS.some((member) => member in jwk)) {
      throw validationFailed('jwks must hold public keys only: never a private key');
    }
  }
  return { keys: keys as JSONWebKeySet['keys'] };
}
