import { userScopes } from '../authority/reserved-scopes';
import type { Clock } from '../clock';
import { invalidGrant, type OAuthError } from '../errors';
import { formatScope } from '../scopes';
import type { TokenEventInput } from '../events/token-event';
import type { Stores } from '../storage';
import type { User } from '../users/user';
import type { JwtAccessTokenStrategy } from '../tokens/access-token';
import { refreshTokens } from '../tokens/opaque-token';
import type { IdTokenIssuer } from '../oidc/id-token';
import { OPENID_SCOPE } from '../oidc/oidc-scopes';
import type { SessionStamp } from '../sessions/session';
import type { DpopConfirmation } from '../tokens/dpop';
import { tokenTypeOf, type TokenResponse } from './grant-handler';

/** The specification's idle window: a refresh token unused this long expires. */
export const REFRESH_TOKEN_IDLE_SECONDS = 30 * 24 * 3600;

/**
 * How long a refresh-token family lives: each token `idleSeconds` from its issue (rotation slides
 * it), the family at most `absoluteSeconds` from its first token (REFRESH_TOKEN_ABSOLUTE_LIFETIME_DAYS);
 * whichever comes first ends it (RFC 9700 section 4.14.2).
 */
export interface RefreshTokenLifetime {
  idleSeconds: number;
  absoluteSeconds: number;
}

/** One step of a user grant: the code exchange, or a refresh. */
export interface UserGrantStep {
  grantId: string;
  clientId: string;
  /** As stored now, so tenant and roles changed at the provider apply from the next token on. */
  user: User;
  /** Scopes of the access token (a refresh may narrow them). */
  scopes: string[];
  /** Scopes of the new refresh token: always those the user granted (RFC 6749 section 6). */
  grantedScopes: string[];
  /** For a refresh, when its family began; a code exchange or login starts a family now. */
  familyCreatedAt?: Date;
  /** The one resource the access token is for (RFC 8707); the refresh token is not bound to it. */
  audience?: string;
  /** The browser session the grant began in: the refresh token carries it on, ID tokens name it. */
  session?: SessionStamp;
  /** The authorization request's nonce, for the ID token of a code exchange. */
  nonce?: string;
  /** The DPoP key the access token is bound to (RFC 9449): `cnf.jkt`, answered as `token_type: DPoP`. */
  confirmation?: DpopConfirmation;
  /** The DPoP key the new refresh token is bound to (a public client's; docs/tokens.md, "DPoP"). */
  refreshBoundTo?: string;
}

/** What a user holds: the roles bound to it and those its groups grant. */
export function effectiveRoles(user: Pick<User, 'roles' | 'groupRoles'>): string[] {
  return [...new Set([...user.roles, ...user.groupRoles])];
}

/**
 * Issues the tokens of a user grant: an access token carrying the user's tenant, effective roles
 * and the grant id, and a new refresh token of the same grant (its family), stored as a hash
 * only. A deactivated user (SCIM `active: false`) gets none: invalid_grant. Service-only scopes
 * (`admin.*`, `jobs.work`, ...) are never granted to a user, whatever an app declared before
 * user-facing apps were refused them (docs/authorization.md, "Upgrading to 1.0").
 */
export class UserTokenIssuer {
  constructor(
    private readonly accessTokens: JwtAccessTokenStrategy,
    private readonly idTokens: IdTokenIssuer,
    private readonly refreshLifetime: RefreshTokenLifetime,
    private readonly clock: Clock,
  ) {}

  /** When a family that began at `familyCreatedAt` ends, however recently it was rotated. */
  familyEnd(familyCreatedAt: Date): Date {
    return new Date(familyCreatedAt.getTime() + this.refreshLifetime.absoluteSeconds * 1000);
  }

  /** `stores` is the caller's transaction, so the tokens exist only if the whole step commits. */
  async issue(
    stores: Pick<Stores, 'refreshTokens' | 'tokenEvents'>,
    step: UserGrantStep,
  ): Promise<TokenResponse | OAuthError> {
    if (!step.user.active) return invalidGrant('the user is deactivated');
    const now = this.clock.now();
    const scopes = userScopes(step.scopes);
    const { token: signing, claims } = this.accessTokens.begin({
      clientId: step.clientId,
      subject: step.user.id,
      scopes,
      user: { tenant: step.user.tenant, roles: effectiveRoles(step.user), grantId: step.grantId },
      ...(step.audience !== undefined && { audience: step.audience }),
      ...(step.confirmation && { confirmation: step.confirmation }),
    });
    // Stored while the thread pool signs: the caller's transaction holds the database for the
    // longer of the two, not their sum. Should a write fail, the signature's outcome is dropped.
    signing.catch(() => undefined);
    const refresh = refreshTokens.generate();
    const familyCreatedAt = step.familyCreatedAt ?? now;
    const idleEnd = now.getTime() + this.refreshLifetime.idleSeconds * 1000;
    await stores.refreshTokens.insertRefreshToken({
      tokenHash: refresh.hash,
      grantId: step.grantId,
      clientId: step.clientId,
      userId: step.user.id,
      scopes: userScopes(step.grantedScopes),
      createdAt: now,
      familyCreatedAt,
      expiresAt: new Date(Math.min(idleEnd, this.familyEnd(familyCreatedAt).getTime())),
      rotatedAt: null,
      revokedAt: null,
      ...(step.session && { session: step.session }),
      ...(step.refreshBoundTo !== undefined && { dpopJkt: step.refreshBoundTo }),
    });
    const event: TokenEventInput = {
      type: 'token.issued',
      clientId: step.clientId,
      subject: step.user.id,
      jti: claims.jti,
      grantId: step.grantId,
      occurredAt: now,
      tenant: step.user.tenant,
    };
    await stores.tokenEvents.appendTokenEvents([event]);
    const token = await signing;
    // at_hash binds the ID token to the access token, so it is signed second.
    const idToken = scopes.includes(OPENID_SCOPE)
      ? await this.idTokens.issue({
          clientId: step.clientId,
          userId: step.user.id,
          accessToken: token,
          ...(step.nonce !== undefined && { nonce: step.nonce }),
          ...(step.session && { session: step.session }),
        })
      : undefined;
    return {
      access_token: token,
      token_type: tokenTypeOf(step.confirmation),
      expires_in: claims.exp - claims.iat,
      scope: formatScope(scopes),
      refresh_token: refresh.value,
      ...(idToken !== undefined && { id_token: idToken }),
    };
  }
}
