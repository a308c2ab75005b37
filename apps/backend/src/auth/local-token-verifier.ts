import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  DenyList,
  epochSeconds,
  isCompactJws,
  MAX_ACCESS_TOKEN_LENGTH,
  type RevocationKind,
  REQUIRED_ACCESS_TOKEN_CLAIMS,
  verifyJwsSignature,
} from '@platform/domain';
import {
  InvalidClaimError,
  tokenClaimsOf,
  type DenyListEntryMessage,
  type JsonWebKeyMessage,
  type TokenClaims,
} from '@platform/grpc';

/** How often, at most, the copied deny-list drops the entries whose tokens have all expired. */
const PRUNE_INTERVAL_SECONDS = 60;

/**
 * The backend's own judgement of an access token, from the trusted keys and the deny-list its
 * sidecar streams (WatchInvalidations): a token the backend has not seen costs one signature
 * check here instead of a gRPC round trip. It only ever *accepts*: whatever it cannot judge
 * exactly as the sidecar's ValidateToken would (an unknown `kid`, a bad signature, an expired or
 * denied token, a header or claim it does not expect) answers undefined, and the caller asks the
 * sidecar, whose answer (and error message) stays the one source. It judges nothing while the
 * stream is not live, so a dead sidecar still means 503.
 */
export class LocalTokenVerifier {
  /** kid -> alg -> key, as the sidecar trusts them. */
  private keys = new Map<string, Map<string, KeyObject>>();
  private denyList = new DenyList();
  private live = false;
  private lastPrune = 0;

  constructor(
    private readonly issuer: string,
    private readonly nowSeconds: () => number = () => epochSeconds(),
  ) {}

  get isLive(): boolean {
    return this.live;
  }

  /** The stream is live with this state; every later change will be applied. */
  goLive(keys: readonly JsonWebKeyMessage[], denyList: readonly DenyListEntryMessage[]): void {
    this.denyList = new DenyList();
    for (const entry of denyList) this.revoke(entry);
    this.replaceKeys(keys);
    this.live = true;
  }

  /** The stream is gone: changes may be missed, so judge nothing until it is live again. */
  goDark(): void {
    this.live = false;
    this.keys = new Map();
    this.denyList = new DenyList();
  }

  revoke(entry: DenyListEntryMessage): void {
    this.denyList.apply({ seq: 0, ...entry, kind: entry.kind as RevocationKind });
    const now = this.nowSeconds();
    if (now - this.lastPrune >= PRUNE_INTERVAL_SECONDS) {
      this.lastPrune = now;
      this.denyList.prune(now);
    }
  }

  replaceKeys(keys: readonly JsonWebKeyMessage[]): void {
    const next = new Map<string, Map<string, KeyObject>>();
    for (const jwk of keys) {
      const imported = importPublicKey(jwk);
      if (imported !== undefined && !next.has(jwk.kid)) next.set(jwk.kid, imported);
    }
    this.keys = next;
  }

  /** The claims of `token` when it is valid beyond doubt; undefined for the sidecar to judge. */
  verify(token: string): TokenClaims | undefined {
    if (!this.live || token.length > MAX_ACCESS_TOKEN_LENGTH || !isCompactJws(token)) return undefined;
    const [header, payload, signature] = token.split('.');
    const protectedHeader = decodeJson(header);
    if (protectedHeader === undefined) return undefined;
    const { alg, typ, kid, crit, b64 } = protectedHeader;
    if (typ !== 'at+jwt' || crit !== undefined || b64 !== undefined || typeof kid !== 'string')
      return undefined;
    const key = this.keys.get(kid)?.get(alg as string);
    if (key === undefined || !verifyJwsSignature(alg as string, `${header}.${payload}`, signature, key)) {
      return undefined;
    }
    const claims = this.claimsOf(decodeJson(payload));
    return claims !== undefined && this.denyList.revocationOf(claims) === undefined ? claims : undefined;
  }

  /** What jose's `jwtVerify` checks with the sidecar's options, then the shared claim mapping. */
  private claimsOf(payload: Record<string, unknown> | undefined): TokenClaims | undefined {
    if (payload === undefined || REQUIRED_ACCESS_TOKEN_CLAIMS.some((claim) => payload[claim] === undefined)) {
      return undefined;
    }
    const { iss, aud, exp, iat, nbf } = payload;
    const now = this.nowSeconds();
    const forUs = aud === this.issuer || (Array.isArray(aud) && aud.includes(this.issuer));
    if (iss !== this.issuer || !forUs || typeof iat !== 'number') return undefined;
    // Same rules as jose's: expired once exp <= now, not yet valid while nbf > now.
    if (typeof exp !== 'number' || exp <= now) return undefined;
    if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) return undefined;
    try {
      return tokenClaimsOf(payload);
    } catch (error) {
      if (error instanceof InvalidClaimError) return undefined;
      throw error;
    }
  }
}

/** A JSON object from a base64url part, or undefined for anything else. */
function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The key per algorithm it verifies, as the sidecar's KeyCache decides them; undefined if unusable. */
function importPublicKey(jwk: JsonWebKeyMessage): Map<string, KeyObject> | undefined {
  const members =
    jwk.kty === 'RSA' ? { kty: 'RSA', n: jwk.n, e: jwk.e } : { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y };
  let key: KeyObject;
  try {
    key = createPublicKey({ key: members, format: 'jwk' });
  } catch {
    return undefined;
  }
  const algorithms = jwk.alg !== '' ? [jwk.alg] : jwk.kty === 'RSA' ? ['RS256', 'PS256'] : ['ES256'];
  return new Map(algorithms.map((alg) => [alg, key]));
}
