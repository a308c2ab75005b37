import { Logger } from '@nestjs/common';
import { DomainError } from '@platform/domain';
import * as oidc from 'openid-client';
import type { AppLoginTransaction } from '../clients/app-login.client';
import type { VerifiedIdentity } from '../clients/sessions.client';

/** Where and as whom the backend signs users in (OIDC_* configuration plus the callback URL). */
export interface IdentityProviderSettings {
  issuer: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  scopes: string;
  /** `{ISSUER}/auth/oidc/callback`, registered at the identity provider. */
  redirectUri: string;
}

/** What must survive the trip to the identity provider and back (sealed in a cookie meanwhile). */
export interface LoginTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** A path on this server, or, for the app login, the app's registered callback URL. */
  returnTo: string;
  /**
   * App login only: the app whose callback `returnTo` is (it gets a login code, not a session),
   * with its PKCE challenge and state, which stay bound to this browser until the callback.
   */
  app?: AppLoginTransaction;
}

const DISCOVERY_TIMEOUT_SECONDS = 5;

/** What an OpenID Connect client of the platform asked of the login, passed on to the provider. */
export interface LoginHints {
  /** Authenticate the user again (the client's `prompt=login`, or a `max_age` the session exceeds). */
  forceLogin?: boolean;
  loginHint?: string;
}

/**
 * The backend as an OpenID Connect relying party (openid-client): authorization code flow with
 * PKCE (S256), state and nonce, client_secret_basic at the token endpoint. Discovery happens
 * at first use and a failure is not remembered, so the backend starts and serves everything
 * else while the identity provider is down, and login works again as soon as it is back.
 */
export class IdentityProviderClient {
  private readonly logger = new Logger(IdentityProviderClient.name);
  private discovered: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly settings: IdentityProviderSettings,
    private readonly discover: typeof oidc.discovery = oidc.discovery,
  ) {}

  /** The URL to send the browser to, and the transaction to keep until it comes back. */
  async startLogin(
    returnTo: string,
    app?: AppLoginTransaction,
    hints: LoginHints = {},
  ): Promise<{ authorizationUrl: URL; transaction: LoginTransaction }> {
    const config = await this.configuration();
    const transaction: LoginTransaction = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
      returnTo,
      ...(app !== undefined && { app }),
    };
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      response_type: 'code',
      scope: this.settings.scopes,
      state: transaction.state,
      nonce: transaction.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(transaction.codeVerifier),
      code_challenge_method: 'S256',
      ...(hints.forceLogin && { prompt: 'login' }),
      ...(hints.loginHint !== undefined && { login_hint: hints.loginHint }),
    });
    return { authorizationUrl, transaction };
  }

  /**
   * Checks the identity provider's answer at the callback (state, then the code exchanged
   * server-side with the PKCE verifier, then the ID token's signature, issuer, audience and
   * nonce) and returns the ID token, with the UserInfo claims when the provider has that endpoint.
   */
  async finishLogin(callbackUrl: URL, transaction: LoginTransaction): Promise<VerifiedIdentity> {
    const config = await this.configuration();
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (idToken === undefined || tokens.id_token === undefined) {
        throw new oidc.ClientError('no ID token in the token response');
      }
      const userInfo = await this.userInfo(config, tokens.access_token, idToken.sub);
      return { idToken: tokens.id_token, userInfo };
    } catch (error) {
      throw this.loginFailure(error);
    }
  }

  private async userInfo(
    config: oidc.Configuration,
    accessToken: string,
    subject: string,
  ): Promise<Record<string, unknown>> {
    if (config.serverMetadata().userinfo_endpoint === undefined) return {};
    try {
      return await oidc.fetchUserInfo(config, accessToken, subject);
    } catch (error) {
      this.logger.warn(`UserInfo failed, using the ID token claims only: ${describe(error)}`);
      return {};
    }
  }

  private configuration(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    if (issuer === undefined || clientId === undefined || clientSecret === undefined) {
      return Promise.reject(new DomainError('unavailable', 'No identity provider is configured for sign-in'));
    }
    this.discovered ??= this.discover(
      new URL(issuer),
      clientId,
      { client_secret: clientSecret, token_endpoint_auth_method: 'client_secret_basic' },
      oidc.ClientSecretBasic(clientSecret),
      {
        timeout: DISCOVERY_TIMEOUT_SECONDS,
        execute: new URL(issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      },
    ).catch((error: unknown) => {
      this.discovered = undefined; // retried at the next login
      this.logger.warn(`identity provider discovery at ${issuer} failed: ${describe(error)}`);
      throw new DomainError('unavailable', 'The identity provider is unavailable; please try again shortly');
    });
    return this.discovered;
  }

  /** The typed error a failed callback becomes (its page and status come from the code). */
  private loginFailure(error: unknown): Error {
    this.logger.warn(`sign-in failed at the callback: ${describe(error)}`);
    if (error instanceof oidc.AuthorizationResponseError) {
      return new DomainError('forbidden', `The identity provider did not sign you in (${error.error}).`);
    }
    if (isUnreachable(error)) {
      return new DomainError('unavailable', 'The identity provider is unavailable; please try again shortly');
    }
    if (error instanceof oidc.ResponseBodyError || error instanceof oidc.ClientError) {
      return new DomainError(
        'validation_failed',
        'The answer of the identity provider could not be verified. Please start again.',
      );
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

const UPSTREAM_TROUBLE = new Set(['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON']);

/** fetch failures (TypeError), timeouts, and 5xx or non-JSON answers of the provider. */
function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof oidc.ClientError) return UPSTREAM_TROUBLE.has(String(error.code));
  return error instanceof TypeError || error.name === 'TimeoutError' || error.name === 'AbortError';
}

/** Name, code and OAuth error of a failure on one line: enough to diagnose, never a token. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const oauthError = (error as { error?: unknown }).error;
  const cause = (error.cause as { code?: unknown } | undefined)?.code;
  return (
    [error.name, code, oauthError, cause, error.message]
      .filter((part) => typeof part === 'string' && part !== '')
      .join(' ')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .slice(0, 300)
  );
}
