import { createPublicKey, type KeyObject } from 'node:crypto';
import { checkedAccessTokenPayload, DenyList, epochSeconds, type RevocationKind } from '@platform/domain';
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
    if (!this.live) return undefined;
    const payload = checkedAccessTokenPayload(token, {
      issuer: this.issuer,
      nowSeconds: this.nowSeconds(),
      keyOf: (kid, alg) => this.keys.get(kid)?.get(alg),
      forIssuerOnly: true,
    });
    const claims = payload && this.claimsOf(payload);
    return claims !== undefined && this.denyList.revocationOf(claims) === undefined ? claims : undefined;
  }

  /** The shared claim mapping, as the sidecar's ValidateToken answers them. */
  private claimsOf(payload: Record<string, unknown>): TokenClaims | undefined {
    try {
      return tokenClaimsOf(payload);
    } catch (error) {
      if (error instanceof InvalidClaimError) return undefined;
      throw error;
    }
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
