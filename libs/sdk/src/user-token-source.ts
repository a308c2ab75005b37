import type { FetchLike } from './fetch';
import { OAuthClient } from './oauth-client';
import { SingleFlight } from './single-flight';
import type { TokenSource } from './token-source';

/** A user's access token and, when the app holds one, the refresh token that renews it. */
export interface UserTokens {
  accessToken: string;
  refreshToken?: string;
}

/** What a refresh must return: the wire shape of the token endpoint is enough. */
export interface RefreshedTokens {
  access_token: string;
  /** The rotated refresh token; when absent the old one is kept. */
  refresh_token?: string;
  expires_in?: number;
}

export type RefreshFunction = (refreshToken: string) => Promise<RefreshedTokens>;

export type UserTokenSourceOptions = UserTokens & {
  /** Called with the new pair after every refresh, so the app can persist it (the old refresh token is dead). */
  onTokens?: (tokens: UserTokens & { expiresIn?: number }) => void | Promise<void>;
} & (
    | {
        /** How to swap a refresh token; e.g. the app's own backend route in a browser. */
        refresh: RefreshFunction;
      }
    | {
        /** The default refresh: `grant_type=refresh_token` at `{baseUrl}/v1/oauth/token`, with `client_id` only. */
        baseUrl: string;
        clientId: string;
        fetch?: FetchLike;
      }
  );

/**
 * The user-forwarding model: the app holds no secret of its own and sends the user's Bearer
 * token. Given a refresh token, a 401 triggers one refresh (shared by every concurrent caller
 * that saw the same token refused); the rotated refresh token replaces the old one and is handed
 * to `onTokens`. Without a refresh token a 401 is final.
 */
export class UserTokenSource implements TokenSource {
  private tokens: UserTokens;
  private readonly refreshWith: RefreshFunction;
  private readonly onTokens: UserTokenSourceOptions['onTokens'];
  private readonly flight = new SingleFlight<string>();

  constructor(options: UserTokenSourceOptions) {
    this.tokens = { accessToken: options.accessToken, refreshToken: options.refreshToken };
    this.onTokens = options.onTokens;
    if ('refresh' in options) {
      this.refreshWith = options.refresh;
    } else {
      const oauth = new OAuthClient({
        baseUrl: options.baseUrl,
        clientId: options.clientId,
        ...(options.fetch && { fetch: options.fetch }),
      });
      this.refreshWith = (refreshToken) => oauth.refresh(refreshToken);
    }
  }

  /** The pair held now (after any refresh). */
  get current(): UserTokens {
    return { ...this.tokens };
  }

  async getToken(): Promise<string> {
    return this.flight.busy ? this.flight.run(() => this.doRefresh()) : this.tokens.accessToken;
  }

  async renew(rejected: string): Promise<string | undefined> {
    if (this.flight.busy) return this.flight.run(() => this.doRefresh());
    if (this.tokens.accessToken !== rejected) return this.tokens.accessToken;
    if (this.tokens.refreshToken === undefined) return undefined;
    return this.flight.run(() => this.doRefresh());
  }

  /** Refreshes now (one refresh at a time) and returns the new access token. */
  refresh(): Promise<string> {
    return this.flight.run(() => this.doRefresh());
  }

  private async doRefresh(): Promise<string> {
    const refreshToken = this.tokens.refreshToken;
    if (refreshToken === undefined) throw new Error('No refresh token: the user must sign in again');
    const answer = await this.refreshWith(refreshToken);
    this.tokens = { accessToken: answer.access_token, refreshToken: answer.refresh_token ?? refreshToken };
    await this.onTokens?.({
      ...this.tokens,
      ...(answer.expires_in !== undefined && { expiresIn: answer.expires_in }),
    });
    return this.tokens.accessToken;
  }
}
