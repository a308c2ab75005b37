import { errorFromResponse } from './errors';
import { type FetchLike, globalFetch, joinUrl } from './fetch';
import type { IntrospectionResponse, TokenResponse } from './wire';

/** How a confidential client proves itself at the token, introspection and revocation endpoints. */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post';

export interface OAuthClientOptions {
  /** The platform's backend, e.g. `https://auth.example.com`. */
  baseUrl: string;
  clientId: string;
  /** Absent for public clients (spa, cli), which may only refresh (with their client_id alone). */
  clientSecret?: string;
  /** Default `client_secret_basic`. */
  authMethod?: ClientAuthMethod;
  fetch?: FetchLike;
}

/**
 * The form-encoded OAuth endpoints of `/v1/oauth/*` for one client: token (client_credentials,
 * refresh_token), introspection (RFC 7662) and revocation (RFC 7009). Non-2xx answers throw
 * `OAuthProtocolError` with the status and body as the platform sent them.
 */
export class OAuthClient {
  private readonly fetch: FetchLike;

  constructor(private readonly options: OAuthClientOptions) {
    this.fetch = options.fetch ?? globalFetch;
  }

  get clientId(): string {
    return this.options.clientId;
  }

  /** A service token (no refresh token). `scope` is space-separated and limited to the declared scopes. */
  clientCredentials(options: { scope?: string } = {}): Promise<TokenResponse> {
    const form: Record<string, string> = { grant_type: 'client_credentials' };
    if (options.scope !== undefined) form.scope = options.scope;
    return this.post('/v1/oauth/token', form, { authenticate: true });
  }

  /**
   * Swaps a refresh token for a new access token and a new refresh token; the old refresh token
   * is revoked at once. A confidential client authenticates with its secret (RFC 6749 section
   * 3.2.1); a public one sends its `client_id` alone.
   */
  refresh(refreshToken: string): Promise<TokenResponse> {
    const form = { grant_type: 'refresh_token', refresh_token: refreshToken };
    return this.options.clientSecret === undefined
      ? this.post('/v1/oauth/token', { ...form, client_id: this.options.clientId }, { authenticate: false })
      : this.post('/v1/oauth/token', form, { authenticate: true });
  }

  /** RFC 7662. A token this client may not see, or an expired or revoked one, is `{ active: false }`. */
  introspect(token: string, options: { tokenTypeHint?: string } = {}): Promise<IntrospectionResponse> {
    return this.post('/v1/oauth/introspect', withHint({ token }, options.tokenTypeHint), {
      authenticate: true,
    });
  }

  /** RFC 7009: resolves for unknown, expired and already revoked tokens too. */
  async revoke(token: string, options: { tokenTypeHint?: string } = {}): Promise<void> {
    await this.post('/v1/oauth/revoke', withHint({ token }, options.tokenTypeHint), { authenticate: true });
  }

  private async post<T>(
    path: string,
    form: Record<string, string>,
    { authenticate }: { authenticate: boolean },
  ): Promise<T> {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const body = new URLSearchParams(form);
    if (authenticate) {
      const { clientId, clientSecret, authMethod = 'client_secret_basic' } = this.options;
      if (clientSecret === undefined) throw new TypeError(`${path} needs a client secret for ${clientId}`);
      if (authMethod === 'client_secret_basic') {
        headers.authorization = basicAuthorization(clientId, clientSecret);
      } else {
        body.set('client_id', clientId);
        body.set('client_secret', clientSecret);
      }
    }
    const response = await this.fetch(joinUrl(this.options.baseUrl, path), {
      method: 'POST',
      headers,
      body: body.toString(),
    });
    if (!response.ok) throw await errorFromResponse(response);
    const text = await response.text();
    return (text === '' ? {} : JSON.parse(text)) as T;
  }
}

/**
 * RFC 6749 section 2.3.1: client id and secret are form-urlencoded, then joined with ':' and
 * base64-encoded. `btoa` is safe here: form-urlencoding leaves only ASCII.
 */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${btoa(`${encode(clientId)}:${encode(clientSecret)}`)}`;
}

function withHint(form: Record<string, string>, hint: string | undefined): Record<string, string> {
  return hint === undefined ? form : { ...form, token_type_hint: hint };
}
