import type { Clock } from '../clock';
import { OAuthError } from '../errors';
import type { TokenEventInput } from '../events/token-event';
import type { TokenEventStore } from '../events/token-event';
import type { AccessTokenSubject, JwtAccessTokenStrategy } from '../tokens/access-token';
import { tokenTypeOf, type TokenResponse } from './grant-handler';

/** RFC 8693 section 3 token types the platform takes and issues; ours are JWT access tokens. */
export const TOKEN_TYPE = {
  accessToken: 'urn:ietf:params:oauth:token-type:access_token',
  jwt: 'urn:ietf:params:oauth:token-type:jwt',
  /** The platform's own: a subject named by its user id, for impersonation (docs/tokens.md). */
  userId: 'urn:platform:params:oauth:token-type:user_id',
} as const;

/** What an exchange issues: an access token, described as the client asked for it. */
export const ISSUABLE_TOKEN_TYPES: readonly string[] = [TOKEN_TYPE.accessToken, TOKEN_TYPE.jwt];

/** Actors in a chain at most: a longer one is refused rather than grown without bound. */
export const MAX_ACTOR_CHAIN = 5;

/** RFC 8693 section 2.2.2: a subject or actor token that is invalid or unacceptable by policy. */
export const unacceptable = (description: string, detail?: string) =>
  new OAuthError('invalid_request', description, detail);

export interface ExchangeSettings {
  /** IMPERSONATION_MAX_LIFETIME_SECONDS. */
  impersonationMaxLifetimeSeconds: number;
}

/**
 * Signs an exchanged token and stores its event (audited one for one) while the thread pool
 * signs, as client credentials does; answers once both are done (RFC 8693 section 2.2.1), never
 * with a refresh token. A failed write answers no token.
 */
export async function issueExchangedToken(
  accessTokens: JwtAccessTokenStrategy,
  events: Pick<TokenEventStore, 'appendTokenEvents'>,
  clock: Clock,
  token: AccessTokenSubject,
  issuedTokenType: string,
  event: Omit<TokenEventInput, 'jti' | 'occurredAt' | 'clientId' | 'subject'>,
): Promise<TokenResponse> {
  const { token: signing, claims } = accessTokens.begin(token);
  const [signed] = await Promise.all([
    signing,
    events.appendTokenEvents([
      {
        ...event,
        clientId: claims.client_id,
        subject: claims.sub,
        jti: claims.jti,
        occurredAt: clock.now(),
        // Until when, from the token itself: the record and the token never disagree.
        attributes: { ...event.attributes, expires_at: new Date(claims.exp * 1000).toISOString() },
      },
    ]),
  ]);
  return {
    access_token: signed,
    issued_token_type: issuedTokenType,
    token_type: tokenTypeOf(token.confirmation),
    expires_in: claims.exp - claims.iat,
    scope: claims.scope,
  };
}
