import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';

/**
 * How a key set is fetched: the control plane passes a fetch that follows the webhooks' address
 * rules (public addresses only in production, checked at every connection), bounded in size and
 * time. The signature is the WHATWG fetch's, as jose calls it.
 */
export type KeySetFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface KeySetCacheOptions {
  fetch: KeySetFetch;
  /** A fetched set is used this long before it is fetched again (default 10 minutes). */
  cacheMaxAgeMs?: number;
  /**
   * An unknown `kid` fetches the set again, at most once per this (default 30 s): a flood of
   * made-up key ids cannot make the platform hammer a client's or an issuer's server.
   */
  refreshCooldownMs?: number;
  /** A fetch that takes longer fails (default 5 s). */
  timeoutMs?: number;
}

/** Key sets remembered at most; the oldest goes first. */
const MAX_KEY_SETS = 10_000;

/**
 * The key sets signed assertions are verified with, one per source: a JWK set fetched from a URL
 * (a client's `jwks_uri`, an issuer's `jwks_uri`), cached and fetched again on an unknown `kid`
 * (jose's remote key set: at most once per cooldown), or one given inline (a client's `jwks`),
 * its keys imported once. Verification keeps each source's imported keys, so a check costs one
 * signature verification and no fetch.
 */
export class KeySetCache {
  private readonly remote = new Map<string, JWTVerifyGetKey>();
  private readonly inline = new Map<string, { source: string; keys: JWTVerifyGetKey }>();

  constructor(private readonly options: KeySetCacheOptions) {}

  /** The keys at `url`, fetched when first needed. */
  fromUrl(url: string): JWTVerifyGetKey {
    let keys = this.remote.get(url);
    if (keys === undefined) {
      keys = createRemoteJWKSet(new URL(url), {
        [customFetch]: this.options.fetch,
        cacheMaxAge: this.options.cacheMaxAgeMs ?? 600_000,
        cooldownDuration: this.options.refreshCooldownMs ?? 30_000,
        timeoutDuration: this.options.timeoutMs ?? 5_000,
      });
      remember(this.remote, url, keys);
    }
    return keys;
  }

  /** The keys of an inline set, imported again only when the set changes (`owner`: whose set it is). */
  inlineSet(owner: string, set: JSONWebKeySet): JWTVerifyGetKey {
    const source = JSON.stringify(set);
    const cached = this.inline.get(owner);
    if (cached?.source === source) return cached.keys;
    const keys = createLocalJWKSet(set);
    remember(this.inline, owner, { source, keys });
    return keys;
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= MAX_KEY_SETS) map.delete(map.keys().next().value as string);
  map.set(key, value);
}
