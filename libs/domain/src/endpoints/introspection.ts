import type { Application } from '../registry/application';
import type { ClientAuthenticator } from '../clients/client-authenticator';
import { readClientCredentials } from '../clients/client-credentials';
import type { Clock } from '../clock';
import { OAuthError } from '../errors';
import type { RefreshTokenStore } from '../grants/refresh-token';
import type { RevocationStore } from '../revocation/revocation';
import type { ActorClaim, ImpersonationClaim } from '../tokens/access-token';
import type { AccessTokenValidator } from '../tokens/token-validator';
import { isCompactJws, refreshTokens } from '../tokens/opaque-token';
import { mayIntrospectAnyToken } from './caller-privileges';

export type IntrospectionResponse =
  | { active: false }
  | {
      active: true;
      client_id: string;
      scope: string;
      sub: string;
      iat: number;
      exp: number;
      iss: string;
      /** The issuer, or the one resource the token is for (RFC 8707). */
      aud: string;
      jti?: string;
      /** `DPoP` for a token bound to a key (RFC 9449 section 6.2). */
      token_type: 'Bearer' | 'DPoP' | 'refresh_token';
      tenant?: string;
      roles?: string[];
      /** Who acts for `sub` (RFC 8693 section 4.1), as in the token. */
      act?: ActorClaim;
      impersonation?: ImpersonationClaim;
      /** The key a DPoP-bound token is bound to (RFC 9449 section 6.2). */
      cnf?: { jkt: string };
    };

const INACTIVE: IntrospectionResponse = { active: false };

/**
 * An actor as a verifier hands it out: as in the token, or as the proto's TokenClaims decodes it
 * (`client_id` '' and `act` null when the token has none).
 */
export interface VerifiedActor {
  sub: string;
  client_id?: string;
  act?: VerifiedActor | null;
}

/**
 * The claims of a valid access token that an introspection answer shows (its active form's
 * fields; `tenant` absent or empty for a service token; `act` absent or null and `impersonation`
 * absent or empty when the token has none), from the control plane's validator or the backend's.
 */
export type IntrospectedClaims = Omit<
  Extract<IntrospectionResponse, { active: true }>,
  'active' | 'token_type' | 'jti' | 'act' | 'impersonation' | 'cnf'
> & { jti: string; act?: VerifiedActor | null; impersonation?: string; cnf?: { jkt: string } | null };

/**
 * The answer for a valid (verified, not denied) access token: its full form for the client it
 * was issued to or a caller that sees any token, `{active: false}` for anyone else.
 */
export function accessTokenIntrospection(
  claims: IntrospectedClaims,
  callerClientId: string,
  callerSeesAnyToken: boolean,
): IntrospectionResponse {
  if (callerClientId !== claims.client_id && !callerSeesAnyToken) return INACTIVE;
  return {
    active: true,
    client_id: claims.client_id,
    scope: claims.scope,
    sub: claims.sub,
    iat: claims.iat,
    exp: claims.exp,
    iss: claims.iss,
    aud: claims.aud,
    jti: claims.jti,
    token_type: claims.cnf ? 'DPoP' : 'Bearer',
    ...(claims.tenant && { tenant: claims.tenant, roles: claims.roles }),
    ...(claims.act && { act: actorAsIssued(claims.act) }),
    ...(claims.impersonation && { impersonation: claims.impersonation as ImpersonationClaim }),
    ...(claims.cnf && { cnf: { jkt: claims.cnf.jkt } }),
  };
}

/**
 * An actor chain as the token carries it (RFC 8693 section 4.1: no empty `client_id`, no null
 * `act`), whichever verifier decoded it: the answers that show it are the same from either.
 */
export function actorAsIssued({ sub, client_id, act }: VerifiedActor): ActorClaim {
  return { sub, ...(client_id && { client_id }), ...(act && { act: actorAsIssued(act) }) };
}

/**
 * RFC 7662. The caller authenticates with its secret; it sees its own tokens, and a resource
 * server (tokens.introspect) or admin app sees any. Everything else is `{active:false}`, so
 * the answer never tells a stranger whether a token exists.
 */
export class TokenIntrospector {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly accessTokens: AccessTokenValidator,
    private readonly refreshTokens: Pick<RefreshTokenStore, 'findRefreshToken'>,
    private readonly revocations: Pick<RevocationStore, 'findActiveRevocations'>,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  async introspect(
    params: Record<string, string>,
    authorization: string | undefined,
  ): Promise<IntrospectionResponse> {
    return (await this.introspectWithReach(params, authorization)).answer;
  }

  /** The answer, and whether the authenticated caller may see any token or only its own. */
  async introspectWithReach(
    params: Record<string, string>,
    authorization: string | undefined,
  ): Promise<{ answer: IntrospectionResponse; seesAnyToken: boolean }> {
    const caller = await this.authenticator.authenticateConfidential(
      readClientCredentials(params, authorization),
    );
    return { answer: await this.answer(caller, params.token), seesAnyToken: mayIntrospectAnyToken(caller) };
  }

  private async answer(caller: Application, token: string | undefined): Promise<IntrospectionResponse> {
    if (!token) throw new OAuthError('invalid_request', 'token is required');

    const claims = isCompactJws(token)
      ? await this.accessTokens.validate(token, { anyAudience: true })
      : null;
    if (claims) return accessTokenIntrospection(claims, caller.clientId, mayIntrospectAnyToken(caller));
    return refreshTokens.accepts(token) ? this.introspectRefreshToken(caller, token) : INACTIVE;
  }

  private async introspectRefreshToken(caller: Application, token: string): Promise<IntrospectionResponse> {
    const record = await this.refreshTokens.findRefreshToken(refreshTokens.hash(token));
    const now = this.clock.now();
    if (!record || record.rotatedAt || record.revokedAt || record.expiresAt <= now) return INACTIVE;
    if (caller.clientId !== record.clientId && !mayIntrospectAnyToken(caller)) return INACTIVE;
    const revoked = await this.revocations.findActiveRevocations(
      [
        { kind: 'grant', value: record.grantId },
        { kind: 'client', value: record.clientId },
      ],
      now,
    );
    if (revoked.some((e) => e.kind === 'grant' || record.createdAt <= e.createdAt)) return INACTIVE;
    return {
      active: true,
      client_id: record.clientId,
      scope: record.scopes.join(' '),
      sub: record.userId,
      iat: Math.floor(record.createdAt.getTime() / 1000),
      exp: Math.floor(record.expiresAt.getTime() / 1000),
      iss: this.issuer,
      aud: this.issuer,
      token_type: 'refresh_token',
    };
  }
}
