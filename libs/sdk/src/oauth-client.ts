import type { DpopKey } from './dpop';
import { errorFromResponse } from './errors';
import { type FetchLike, globalFetch, joinUrl } from './fetch';
import { OAuthProtocolError } from './errors';
import type {
  DeviceAuthorizationResponse,
  IntrospectionResponse,
  TokenResponse,
  TokenValidation,
} from './wire';

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
  /**
   * DPoP (RFC 9449, docs/tokens.md "DPoP"): every token request carries a proof of this key, so
   * the access tokens (and a public client's refresh tokens) are bound to it (`token_type:
   * DPoP`); a `use_dpop_nonce` refusal is retried once with the server's nonce. Give the same
   * key to the PlatformClient that uses the tokens.
   */
  dpop?: DpopKey;
}

const TOKEN_PATH = '/v1/oauth/token';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8628 section 3.5: what each `slow_down` adds to the interval. */
const SLOW_DOWN_SECONDS = 5;
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
const USER_ID_TYPE = 'urn:platform:params:oauth:token-type:user_id';

/** RFC 8693 delegation: trade a token this client received for one naming it as the actor. */
export interface TokenExchangeOptions {
  subjectToken: string;
  /** A registered resource URI or the client_id of its app (one of `audience` or `resource`). */
  audience?: string;
  resource?: string;
  /** Only narrows the subject token's scopes. */
  scope?: string;
  /** This client's own token naming someone else as the actor; default: the client itself acts. */
  actorToken?: string;
}

/** Impersonation (docs/tokens.md): a token as `userId`, for a client registered for it. */
export interface ImpersonationOptions {
  userId: string;
  /** The impersonator's own access token, issued to this client. */
  actorToken: string;
  /** Why, for the audit log. */
  reason: string;
  scope?: string;
  resource?: string;
}

/**
 * The form-encoded OAuth endpoints of `/v1/oauth/*` for one client: token (client_credentials,
 * refresh_token, token exchange and impersonation), introspection (RFC 7662) and revocation
 * (RFC 7009), and token validation for a resource server. Non-2xx answers throw
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

  /**
   * A service token (no refresh token). `scope` is space-separated and limited to the declared
   * scopes; `resource` (RFC 8707) makes it a token for that one registered resource.
   */
  clientCredentials(options: { scope?: string; resource?: string } = {}): Promise<TokenResponse> {
    return this.post('/v1/oauth/token', defined({ grant_type: 'client_credentials', ...options }), {
      authenticate: true,
    });
  }

  /** RFC 8693: the answer's token names this client (or the actor token's subject) in `act`. */
  exchange(options: TokenExchangeOptions): Promise<TokenResponse> {
    const { subjectToken, actorToken, ...target } = options;
    const form = defined({
      grant_type: TOKEN_EXCHANGE,
      subject_token: subjectToken,
      subject_token_type: ACCESS_TOKEN_TYPE,
      ...(actorToken !== undefined && { actor_token: actorToken, actor_token_type: ACCESS_TOKEN_TYPE }),
      ...target,
    });
    return this.post('/v1/oauth/token', form, { authenticate: true });
  }

  /** A short-lived token as a user, never refreshed; audited with the reason. */
  impersonate(options: ImpersonationOptions): Promise<TokenResponse> {
    const { userId, actorToken, reason, ...rest } = options;
    const form = defined({
      grant_type: TOKEN_EXCHANGE,
      subject_token: userId,
      subject_token_type: USER_ID_TYPE,
      actor_token: actorToken,
      actor_token_type: ACCESS_TOKEN_TYPE,
      reason,
      ...rest,
    });
    return this.post('/v1/oauth/token', form, { authenticate: true });
  }

  /**
   * The platform's judgement of a token (`POST /api/v1/auth/validate`: signature, expiry,
   * revocation). A resource server names its registered resource URI as `audience`: only a
   * token for exactly it is active (RFC 8707); without one, only a token for the platform itself.
   * The claims include `act` (who acts for `sub`) and `impersonation`.
   */
  async validate(token: string, options: { audience?: string } = {}): Promise<TokenValidation> {
    const response = await this.fetch(joinUrl(this.options.baseUrl, '/api/v1/auth/validate'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ token, ...options }),
    });
    if (!response.ok) throw await errorFromResponse(response);
    return (await response.json()) as TokenValidation;
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

  /**
   * RFC 8628 section 3.1 (a `cli` app): a device code to poll with (`pollDeviceToken`) and a
   * user code for the user to enter at `verification_uri`. A client with a secret authenticates
   * with it; one without sends its `client_id` alone.
   */
  deviceAuthorization(options: { scope?: string } = {}): Promise<DeviceAuthorizationResponse> {
    return this.postAsClient('/v1/oauth/device_authorization', defined({ scope: options.scope }));
  }

  /**
   * RFC 8628 section 3.4: polls the token endpoint with the device code every `interval` seconds
   * (5 more after each `slow_down`) until the user answered. Resolves with the user's tokens;
   * rejects with the `OAuthProtocolError` that ended it (`access_denied`, `expired_token`, ...),
   * or the signal's reason when aborted.
   */
  async pollDeviceToken(
    authorization: { device_code: string; interval: number },
    options: { signal?: AbortSignal; onPending?: (intervalSeconds: number) => void; sleep?: Sleep } = {},
  ): Promise<TokenResponse> {
    const sleep = options.sleep ?? abortableSleep;
    let interval = authorization.interval > 0 ? authorization.interval : 5;
    const form = { grant_type: DEVICE_CODE, device_code: authorization.device_code };
    for (;;) {
      await sleep(interval * 1000, options.signal);
      try {
        return await this.postAsClient<TokenResponse>('/v1/oauth/token', form);
      } catch (error) {
        if (!(error instanceof OAuthProtocolError)) throw error;
        if (error.error === 'slow_down') interval += SLOW_DOWN_SECONDS;
        else if (error.error !== 'authorization_pending') throw error;
        options.onPending?.(interval);
      }
    }
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

  /** With the secret when the client has one, else (a public client) its client_id alone. */
  private postAsClient<T>(path: string, form: Record<string, string>): Promise<T> {
    return this.options.clientSecret === undefined
      ? this.post(path, { ...form, client_id: this.options.clientId }, { authenticate: false })
      : this.post(path, form, { authenticate: true });
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
    const url = joinUrl(this.options.baseUrl, path);
    // Proofs go to the token endpoint only (RFC 9449 section 5), not introspection or revocation.
    const dpop = path === TOKEN_PATH ? this.options.dpop : undefined;
    const send = async () =>
      this.fetch(url, {
        method: 'POST',
        headers: { ...headers, ...(dpop && { dpop: await dpop.proof('POST', url) }) },
        body: body.toString(),
      });
    let response = await send();
    if (dpop !== undefined && dpop.rememberNonce(url, response) && (await isNonceRefusal(response))) {
      response = await send();
      dpop.rememberNonce(url, response);
    }
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

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });

/** The form's members that have a value. */
function defined(form: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function withHint(form: Record<string, string>, hint: string | undefined): Record<string, string> {
  return hint === undefined ? form : { ...form, token_type_hint: hint };
}

/** A token endpoint's `use_dpop_nonce` (RFC 9449 section 8), read from a copy of the answer. */
async function isNonceRefusal(response: Response): Promise<boolean> {
  if (response.status !== 400) return false;
  try {
    const body = (await response.clone().json()) as { error?: unknown };
    return body.error === 'use_dpop_nonce';
  } catch {
    return false;
  }
}
