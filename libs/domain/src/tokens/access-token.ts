import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { Clock } from '../clock';
import type { SigningKeyRing } from '../keys/signing-key-ring';
import type { DpopConfirmation } from './dpop';
import { checkedAccessTokenPayload } from './access-token-check';
import { signRs256 } from './jws';
import { newTokenId } from './token-id';

/** The claims without which no access token is valid, wherever one is verified (RFC 9068 section 2.2). */
export const REQUIRED_ACCESS_TOKEN_CLAIMS = ['exp', 'iat', 'jti', 'sub', 'client_id'] as const;

export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

/** An access token is a few hundred bytes; anything this large is not one of ours. */
export const MAX_ACCESS_TOKEN_LENGTH = 16 * 1024;

/** The acting party of a delegated or impersonation token (RFC 8693 section 4.1), nested for a chain. */
export interface ActorClaim {
  sub: string;
  client_id?: string;
  /** The actor before this one. */
  act?: ActorClaim;
}

/** What an impersonation token may do: `read_only` confines it to `*.read` actions. */
export type ImpersonationClaim = 'full' | 'read_only';

/**
 * RFC 9068 claims of our access tokens; user tokens add tenant, roles and grant_id, a bound
 * service app's tokens its tenant (docs/authorization.md). `aud` is the issuer unless the token
 * was asked for one resource (RFC 8707); an exchanged token names its actors in `act` (docs/tokens.md).
 */
export interface AccessTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  jti: string;
  client_id: string;
  scope: string;
  tenant?: string;
  roles?: string[];
  grant_id?: string;
  act?: ActorClaim;
  impersonation?: ImpersonationClaim;
  /** Who may act for the subject (RFC 8693 section 4.4); honoured when present, never issued by us. */
  may_act?: { sub: string; client_id?: string };
  /** The key the token is bound to (RFC 9449 section 6.1): a DPoP proof of it goes with every use. */
  cnf?: DpopConfirmation;
}

export interface AccessTokenSubject {
  clientId: string;
  /** client_id for service tokens, the user id for user tokens. */
  subject: string;
  scopes: string[];
  /** The tenant a bound service app acts in (service tokens only; a user's is `user.tenant`). */
  tenant?: string;
  user?: { tenant: string; roles: string[]; grantId: string };
  /** The one resource the token is for (RFC 8707); absent: the issuer, as every token before. */
  audience?: string;
  act?: ActorClaim;
  impersonation?: ImpersonationClaim;
  /** Shorter than the configured lifetime (an exchanged or impersonation token), never longer. */
  lifetimeSeconds?: number;
  /** The DPoP key the token is bound to (RFC 9449): issued with `cnf.jkt`. */
  confirmation?: DpopConfirmation;
}

export interface IssuedAccessToken {
  token: string;
  claims: AccessTokenClaims;
}

/** A token whose claims are fixed and whose signature is under way in the thread pool. */
export interface PendingAccessToken {
  claims: AccessTokenClaims;
  token: Promise<string>;
}

export interface AccessTokenSettings {
  issuer: string;
  lifetimeSeconds: number;
}

/** Generates, signs and validates RS256 JWT access tokens (RFC 9068 profile). */
export class JwtAccessTokenStrategy {
  constructor(
    private readonly keys: SigningKeyRing,
    private readonly settings: AccessTokenSettings,
    private readonly clock: Clock,
  ) {}

  /** The audience of every token asked for no resource: the platform's own API. */
  get issuer(): string {
    return this.settings.issuer;
  }

  async issue(subject: AccessTokenSubject): Promise<IssuedAccessToken> {
    const { token, claims } = this.begin(subject);
    return { token: await token, claims };
  }

  /**
   * The claims at once, the signature started: a caller can store what the token will be (its
   * event) while the thread pool signs, and answer once both are done.
   */
  begin(subject: AccessTokenSubject): PendingAccessToken {
    const now = this.clock.now().getTime();
    const iat = Math.floor(now / 1000);
    const claims: AccessTokenClaims = {
      iss: this.settings.issuer,
      sub: subject.subject,
      aud: subject.audience ?? this.settings.issuer,
      exp: iat + Math.min(subject.lifetimeSeconds ?? Infinity, this.settings.lifetimeSeconds),
      iat,
      jti: newTokenId(now),
      client_id: subject.clientId,
      scope: subject.scopes.join(' '),
      ...(subject.tenant !== undefined && { tenant: subject.tenant }),
      ...(subject.user && {
        tenant: subject.user.tenant,
        roles: subject.user.roles,
        grant_id: subject.user.grantId,
      }),
      ...(subject.act && { act: subject.act }),
      ...(subject.impersonation && { impersonation: subject.impersonation }),
      ...(subject.confirmation && { cnf: { jkt: subject.confirmation.jkt } }),
    };
    const { kid, privateKey } = this.keys.signingKey();
    return { token: signRs256({ alg: 'RS256', typ: 'at+jwt', kid }, claims, privateKey), claims };
  }

  /**
   * The token's claims when it is one of ours with a valid signature, otherwise null, whatever
   * its audience: introspection, revocation and token exchange serve every resource's tokens.
   * `allowExpired` serves revocation, which must accept expired tokens (RFC 7009).
   */
  async verify(token: string, options: { allowExpired?: boolean } = {}): Promise<AccessTokenClaims | null> {
    // A valid token, the usual case, is judged synchronously; jose judges the rest.
    const checked = checkedAccessTokenPayload(token, {
      issuer: this.settings.issuer,
      nowSeconds: Math.floor(this.clock.now().getTime() / 1000),
      keyOf: (kid, alg) => (alg === 'RS256' ? this.keys.verificationKeyObject(kid) : undefined),
      forIssuerOnly: false,
      allowExpired: options.allowExpired,
    });
    if (checked !== undefined) return checked as unknown as AccessTokenClaims;
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return null;
    }
    const key = kid === undefined ? undefined : this.keys.verificationKey(kid);
    if (!key) return null;
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['RS256'],
        typ: 'at+jwt',
        issuer: this.settings.issuer,
        requiredClaims: [...REQUIRED_ACCESS_TOKEN_CLAIMS],
        currentDate: options.allowExpired ? new Date(0) : this.clock.now(),
      });
      return payload as unknown as AccessTokenClaims;
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
