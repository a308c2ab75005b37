import { decodeJwt, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '../clock';
import { OAuthError } from '../errors';
import type { Application } from '../registry/application';
import { assertionKey, type AssertionReplays } from './assertion-replays';
import type { KeySetCache } from './key-sets';

/** RFC 7523 section 2.2: `client_assertion_type` of a JWT client assertion. */
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Signature algorithms of client assertions and workload tokens: never `none`, never an HMAC. */
export const ASSERTION_SIGNING_ALGS = ['RS256', 'PS256', 'ES256'] as const;

/** An assertion may expire at most this far ahead: it is remembered (its `jti`) that long. */
export const ASSERTION_MAX_LIFETIME_SECONDS = 300;

/** Clock difference tolerated on `exp`, `nbf` and `iat`. */
export const ASSERTION_CLOCK_SKEW_SECONDS = 30;

/** `jti` values longer than this are refused (they are hashed, but need not be essays). */
const JTI_MAX_LENGTH = 256;

export interface ClientAssertionSettings {
  /** The issuer identifier: the audience draft-ietf-oauth-rfc7523bis requires. */
  issuer: string;
  /** The token endpoint's URL, which OpenID Connect Core section 9 names: accepted too. */
  tokenEndpoint: string;
}

/**
 * private_key_jwt (RFC 7523 section 2.2, OpenID Connect Core section 9): the client signs a short
 * JWT with a key whose public half it registered (`jwks` or `jwks_uri`). Checked: the signature
 * by a registered key (RS256, PS256 or ES256 only), `iss` and `sub` both the client_id, `aud` the
 * issuer or the token endpoint's URL (one string), `exp` present and at most 5 minutes ahead,
 * `nbf` and `iat` not in the future, `jti` present and never seen before: it is remembered in the
 * database until the assertion expires, so no replica accepts it twice. Every refusal is the
 * same `invalid_client`; what failed goes to the log only.
 */
export class ClientAssertionVerifier {
  constructor(
    private readonly keys: KeySetCache,
    private readonly replays: AssertionReplays,
    private readonly settings: ClientAssertionSettings,
    private readonly clock: Clock,
  ) {}

  async verify(app: Application, assertion: string): Promise<void> {
    const now = this.clock.now();
    let payload: JWTPayload;
    try {
      const keys = this.keysOf(app);
      if (keys === undefined) throw new Error('the client registered no keys');
      ({ payload } = await jwtVerify(assertion, keys, {
        algorithms: [...ASSERTION_SIGNING_ALGS],
        issuer: app.clientId,
        subject: app.clientId,
        audience: [this.settings.issuer, this.settings.tokenEndpoint],
        requiredClaims: ['exp', 'jti'],
        clockTolerance: ASSERTION_CLOCK_SKEW_SECONDS,
        currentDate: now,
      }));
    } catch (error) {
      throw refused(`assertion rejected: ${(error as Error).message}`);
    }
    const { aud, exp, iat, jti } = payload as { aud: unknown; exp: number; iat?: unknown; jti: unknown };
    // draft-ietf-oauth-rfc7523bis: one string, never an array listing other servers too.
    if (typeof aud !== 'string') throw refused('aud must be a single string');
    if (typeof jti !== 'string' || jti.length === 0 || jti.length > JTI_MAX_LENGTH) {
      throw refused('jti must be a string of 1 to 256 characters');
    }
    const nowSeconds = Math.floor(now.getTime() / 1000);
    if (exp > nowSeconds + ASSERTION_MAX_LIFETIME_SECONDS + ASSERTION_CLOCK_SKEW_SECONDS) {
      throw refused('exp is too far in the future');
    }
    if (iat !== undefined && (typeof iat !== 'number' || iat > nowSeconds + ASSERTION_CLOCK_SKEW_SECONDS)) {
      throw refused('iat is in the future');
    }
    const fresh = await this.replays.firstUse(
      assertionKey('client_assertion', app.clientId, jti),
      new Date((exp + ASSERTION_CLOCK_SKEW_SECONDS) * 1000),
    );
    if (!fresh) throw refused('jti was used before');
  }

  private keysOf(app: Application): JWTVerifyGetKey | undefined {
    if (app.jwksUri) return this.keys.fromUrl(app.jwksUri);
    if (app.jwks) return this.keys.inlineSet(app.clientId, app.jwks);
    return undefined;
  }
}

/** The client_id an assertion names (`sub`, else `iss`), unverified: for a request without `client_id`. */
export function assertedClientId(assertion: string): string | undefined {
  try {
    const { sub, iss } = decodeJwt(assertion);
    return typeof sub === 'string' ? sub : typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

const refused = (detail: string) => new OAuthError('invalid_client', 'client authentication failed', detail);
