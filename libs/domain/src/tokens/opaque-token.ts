import { createHash, randomBytes } from 'node:crypto';

/**
 * The prefix of each opaque token kind (fosite's `strategy_hmacsha_prefixed.go`: `ory_rt_`, ...),
 * so every token says what it is: a refresh token presented as a code, or a session cookie
 * presented as a refresh token, is refused by its kind before any lookup, and a leaked value is
 * recognisable to secret scanners. Access tokens are JWTs and carry their kind in `typ: at+jwt`.
 */
export const TOKEN_PREFIXES = {
  refresh_token: 'plat_rt_',
  authorization_code: 'plat_ac_',
  login_code: 'plat_lc_',
  session: 'plat_ss_',
  device_code: 'plat_dc_',
} as const;

export type OpaqueTokenKind = keyof typeof TOKEN_PREFIXES;

const KINDS = Object.keys(TOKEN_PREFIXES) as OpaqueTokenKind[];

/** The kind a token's prefix names, or undefined for an unprefixed value. */
export function opaqueTokenKind(value: string): OpaqueTokenKind | undefined {
  return KINDS.find((kind) => value.startsWith(TOKEN_PREFIXES[kind]));
}

/** A JWS compact serialization (three base64url parts): the shape of every access token. */
export const isCompactJws = (value: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);

/** What a presented value says it is, for a log line (never the value itself). */
export const describeTokenKind = (value: string): string =>
  opaqueTokenKind(value) ?? (isCompactJws(value) ? 'a JWT' : 'unprefixed');

/**
 * One opaque token kind: generates `prefix + 256 random bits`, of which only the SHA-256 is ever
 * stored (a database leak yields nothing usable), and tells whether a presented value may be one.
 */
export class OpaqueTokenStrategy {
  readonly prefix: string;

  constructor(readonly kind: OpaqueTokenKind) {
    this.prefix = TOKEN_PREFIXES[kind];
  }

  generate(): { value: string; hash: string } {
    const value = this.prefix + randomBytes(32).toString('base64url');
    return { value, hash: this.hash(value) };
  }

  /** What the store keys the token by: the SHA-256 of the value as presented, prefix included. */
  hash(value: string): string {
    return createHash('sha256').update(value).digest('base64url');
  }

  /**
   * Whether `value` may be a token of this kind: it carries this kind's prefix, or (tokens issued
   * before prefixes, docs/tokens.md) no prefix and no JWT shape. Never a token of another kind.
   */
  accepts(value: string): boolean {
    if (value.startsWith(this.prefix)) return true;
    return opaqueTokenKind(value) === undefined && !isCompactJws(value);
  }
}

export const refreshTokens = new OpaqueTokenStrategy('refresh_token');
export const authorizationCodes = new OpaqueTokenStrategy('authorization_code');
export const loginCodes = new OpaqueTokenStrategy('login_code');
export const sessionTokens = new OpaqueTokenStrategy('session');
export const deviceCodes = new OpaqueTokenStrategy('device_code');
