import type { Clock } from './clock';
import { OAuthClient, type OAuthClientOptions } from './oauth-client';
import { TokenCache } from './token-cache';
import type { TokenSource } from './token-source';
import type { TokenResponse } from './wire';

export interface ServiceTokenSourceOptions extends OAuthClientOptions {
  clientSecret: string;
  /** Space-separated; default: every declared scope. */
  scope?: string;
  /** RFC 8707: tokens for this one registered resource; default: for the platform. */
  resource?: string;
  /** Milliseconds; default `Date.now`. */
  clock?: Clock;
}

/**
 * The service model: client_credentials with the app's own secret (client_secret_basic by
 * default). Caches the token, fetches a new one at 80% of `expires_in`, one fetch at a time
 * however many callers wait. For headless work only (cron jobs, workers, CI): it acts as the
 * app, not as a user.
 */
export class ServiceTokenSource implements TokenSource {
  private readonly cache: TokenCache;

  constructor(options: ServiceTokenSourceOptions) {
    const oauth = new OAuthClient(options);
    const { scope, resource } = options;
    this.cache = new TokenCache(() => oauth.clientCredentials({ scope, resource }), options.clock);
  }

  async getToken(): Promise<string> {
    return (await this.cache.get()).token.access_token;
  }

  /** The whole cached token response (expires_in, scope), fetching one if needed. */
  async getTokenResponse(): Promise<TokenResponse> {
    return (await this.cache.get()).token;
  }

  async renew(rejected: string): Promise<string> {
    return (await this.cache.renew(rejected)).token.access_token;
  }

  /** Forgets the cached token; the next call fetches a new one. */
  invalidate(): void {
    this.cache.invalidate();
  }
}
