import { DEFAULTS } from '@platform/config';
import type { TokenClaims } from '@platform/grpc';
import type { CryptoKey } from 'jose';

/** A token that passed full validation, and the imported key whose signature check it passed. */
export interface VerifiedToken {
  claims: Readonly<TokenClaims>;
  /** Its `aud`, as a list: checked against the caller's audience on every hit. */
  audiences: readonly string[];
  kid: string;
  alg: string;
  key: CryptoKey;
}

/**
 * Access tokens that already passed full validation, keyed by the exact token string, so a client
 * that presents the same token on every request pays for the RS256 check and the JSON parsing
 * once. It only ever saves work the answer does not depend on: the caller still checks, on every
 * hit, that the key that verified the token is still trusted (the same imported key for its
 * `kid` and `alg`, so a key dropped from the key set refuses its tokens at once), that the token
 * has not expired, its audience (the caller's) and the deny-list. Refused tokens are never stored. Bounded: the oldest
 * entry goes first; size 0 disables it.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, VerifiedToken>();

  constructor(private readonly maxEntries: number = DEFAULTS.sidecarTokenCacheSize) {}

  get size(): number {
    return this.entries.size;
  }

  get(token: string): VerifiedToken | undefined {
    return this.entries.get(token);
  }

  set(token: string, verified: VerifiedToken): void {
    if (this.maxEntries <= 0) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(token)) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(token, verified);
  }

  delete(token: string): void {
    this.entries.delete(token);
  }
}
