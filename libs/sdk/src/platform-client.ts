import { errorFromResponse } from './errors';
import { type FetchLike, globalFetch, joinUrl } from './fetch';
import { asksForNonce, type DpopKey } from './dpop';
import type { TokenSource } from './token-source';
import type { Me } from './wire';

export interface PlatformClientOptions {
  /** The platform's backend, e.g. `https://auth.example.com`. */
  baseUrl: string;
  /** A `ServiceTokenSource` (service model) or a `UserTokenSource` (user-forwarding model). */
  tokens: TokenSource;
  fetch?: FetchLike;
  /**
   * DPoP (RFC 9449): the key the token source's tokens are bound to (the OAuthClient's `dpop`).
   * Every request then carries `Authorization: DPoP <token>` and a fresh proof naming its method,
   * URL and token; a `use_dpop_nonce` challenge is answered once with the server's nonce.
   */
  dpop?: DpopKey;
}

/**
 * Calls the platform's Bearer-protected routes. Every request carries `Authorization: Bearer`;
 * on a 401 the token source renews once and the request is sent once more; a second 401, like
 * any other non-2xx answer, is thrown as a `ProblemError` / `OAuthProtocolError` /
 * `PlatformError` with its status, headers and body.
 */
export class PlatformClient {
  readonly baseUrl: string;
  private readonly tokens: TokenSource;
  private readonly fetch: FetchLike;
  private readonly dpop: DpopKey | undefined;

  constructor(options: PlatformClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.tokens = options.tokens;
    this.fetch = options.fetch ?? globalFetch;
    this.dpop = options.dpop;
  }

  /**
   * `path` is relative to `baseUrl` (`/v1/me`). Resolves with the 2xx response, body unread.
   * The body must be replayable (a string, `URLSearchParams`, `Blob`, `FormData`, a buffer),
   * since a 401 sends the request a second time.
   */
  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const url = joinUrl(this.baseUrl, path);
    const token = await this.tokens.getToken();
    let response = await this.send(url, init, token);
    if (response.status === 401) {
      const renewed = await this.tokens.renew(token).catch(async (error: unknown) => {
        await discard(response);
        throw error;
      });
      if (renewed !== undefined) {
        await discard(response);
        response = await this.send(url, init, renewed);
      }
    }
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }

  /** `request`, then the JSON body (`undefined` for an empty body, e.g. 204). */
  async json<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await this.request(path, {
      ...init,
      headers: mergeHeaders({ accept: 'application/json' }, init.headers),
    });
    const text = await response.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /** `GET /v1/me`: the caller as the platform sees its token. */
  me(): Promise<Me> {
    return this.json<Me>('/v1/me');
  }

  private async send(url: string, init: RequestInit, token: string): Promise<Response> {
    const headers = mergeHeaders({}, init.headers);
    const dpop = this.dpop;
    if (dpop === undefined) {
      headers.set('authorization', `Bearer ${token}`);
      return this.fetch(url, { ...init, headers });
    }
    headers.set('authorization', `DPoP ${token}`);
    const method = (init.method ?? 'GET').toUpperCase();
    headers.set('dpop', await dpop.proof(method, url, { accessToken: token }));
    const response = await this.fetch(url, { ...init, headers });
    if (!dpop.rememberNonce(url, response) || !asksForNonce(response)) return response;
    await discard(response);
    headers.set('dpop', await dpop.proof(method, url, { accessToken: token }));
    return this.fetch(url, { ...init, headers });
  }
}

function mergeHeaders(defaults: Record<string, string>, given: RequestInit['headers']): Headers {
  const headers = new Headers(defaults);
  new Headers(given).forEach((value, name) => headers.set(name, value));
  return headers;
}

/** Releases the connection of a response whose body nobody will read. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
