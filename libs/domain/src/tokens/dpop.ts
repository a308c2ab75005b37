import {
  constants,
  createHmac,
  createPublicKey,
  hash,
  timingSafeEqual,
  verify,
  type KeyObject,
} from 'node:crypto';
import { decodeJsonPart } from './jws';

/**
 * DPoP (RFC 9449): a proof JWT the client signs with its own key for each request, which the
 * token endpoint checks before binding the token it issues to that key (`cnf.jkt`, the RFC 7638
 * thumbprint) and which every resource check asks of a bound token (docs/tokens.md, "DPoP").
 * Plain TypeScript, synchronous with node:crypto (as the backend's LocalTokenVerifier): 30-80 µs
 * a proof, where jose's WebCrypto path costs several times that in job plumbing.
 */

/** The proof algorithms accepted (asymmetric only: `none` and every HMAC are refused). */
export const DPOP_ALGORITHMS = ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'] as const;
export type DpopAlgorithm = (typeof DPOP_ALGORITHMS)[number];

/** A proof is accepted this many seconds after its `iat`, at most. */
export const DPOP_MAX_AGE_SECONDS = 60;
/** ... and this many seconds before it (the client's clock ahead of ours). */
export const DPOP_CLOCK_SKEW_SECONDS = 5;
/** A proof is a few hundred bytes (an RSA key's modulus is the largest part). */
export const MAX_DPOP_PROOF_LENGTH = 8 * 1024;
const MAX_JTI_LENGTH = 256;

/** RFC 9449 section 7.1's `error` values, and the resource's invalid_token for a wrong binding. */
export type DpopErrorCode = 'invalid_dpop_proof' | 'use_dpop_nonce';

/** A refused proof. `nonce` is the value the client must use next (answered as `DPoP-Nonce`). */
export class DpopProofError extends Error {
  override readonly name = 'DpopProofError';
  constructor(
    readonly code: DpopErrorCode,
    readonly description: string,
    readonly nonce?: string,
  ) {
    super(`${code}: ${description}`);
  }
}

/** What one request presents, and what it must match. */
export interface DpopProofCheck {
  /** The `DPoP` header's value, verbatim. */
  proof: string;
  /** The request's method (`htm`). */
  method: string;
  /** The request's URL as the client addressed it; query and fragment are ignored (`htu`). */
  url: string;
  /** At a resource: the access token presented, whose SHA-256 the proof's `ath` must be. */
  accessToken?: string;
  /** At a resource: the token's `cnf.jkt`, which the proof's key must have as thumbprint. */
  jkt?: string;
}

export interface VerifiedDpopProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's key, base64url: a bound token's `cnf.jkt`. */
  jkt: string;
  jti: string;
  iat: number;
}

/** A proof header that passed its checks: its algorithm, its key and the key's thumbprint. */
interface JudgedHeader {
  alg: DpopAlgorithm;
  jkt: string;
  key: KeyObject;
}

/** The `cnf` claim of a bound access token (RFC 9449 section 6.1). */
export interface DpopConfirmation {
  jkt: string;
}

export interface DpopVerifierOptions {
  maxAgeSeconds?: number;
  clockSkewSeconds?: number;
  /** When set, a proof must carry a nonce these accept (section 8); else `use_dpop_nonce`. */
  nonces?: DpopNonces;
}

/**
 * RFC 9449 section 4.3's checks, in its order: one JWT with `typ: dpop+jwt`, an allowed
 * asymmetric `alg`, a public `jwk` whose key verifies the signature, `htm` and `htu` of this
 * request, `iat` within the window, a `nonce` when nonces are asked for, `ath` at a resource,
 * and a `jti` never seen before within the window (DpopReplayCache). Any failure throws
 * DpopProofError; nothing is remembered of a proof that fails.
 */
export class DpopProofVerifier {
  private readonly maxAge: number;
  private readonly skew: number;
  private readonly keys = new BoundedMap<KeyObject>(10_000);
  private readonly headers = new BoundedMap<JudgedHeader>(10_000);

  constructor(
    private readonly replays: DpopReplayCache,
    private readonly nowSeconds: () => number,
    private readonly options: DpopVerifierOptions = {},
  ) {
    this.maxAge = options.maxAgeSeconds ?? DPOP_MAX_AGE_SECONDS;
    this.skew = options.clockSkewSeconds ?? DPOP_CLOCK_SKEW_SECONDS;
  }

  /** Whether proofs must carry a server nonce (DPOP_NONCE_REQUIRED). */
  get noncesRequired(): boolean {
    return this.options.nonces !== undefined;
  }

  /** The nonce to hand out now (`DPoP-Nonce`), when nonces are required. */
  currentNonce(): string | undefined {
    return this.options.nonces?.current();
  }

  verify(check: DpopProofCheck): VerifiedDpopProof {
    const { proof } = check;
    if (proof.length > MAX_DPOP_PROOF_LENGTH) throw invalid('the DPoP proof is too large');
    const parts = proof.split('.');
    if (parts.length !== 3) throw invalid('the DPoP proof is not a JWT');
    const [encodedHeader, encodedPayload, signature] = parts;
    // A client signs every proof with one key, so its header is the same each time: judged once.
    const { alg, jkt, key } = this.headers.get(encodedHeader) ?? this.judgeHeader(encodedHeader);
    if (check.jkt !== undefined && jkt !== check.jkt) {
      throw invalid('the DPoP proof key is not the key the access token is bound to');
    }
    if (!verifySignature(alg, `${encodedHeader}.${encodedPayload}`, signature, key)) {
      throw invalid('the DPoP proof signature is invalid');
    }

    const claims = decodeJsonPart(encodedPayload);
    if (claims === undefined) throw invalid('the DPoP proof payload is malformed');
    const { jti, htm, htu, iat, ath, nonce } = claims;
    if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) {
      throw invalid('the DPoP proof has no valid jti');
    }
    if (htm !== check.method) throw invalid('the DPoP proof htm does not match the request method');
    if (typeof htu !== 'string' || !sameTarget(htu, check.url)) {
      throw invalid('the DPoP proof htu does not match the request URL');
    }
    const now = this.nowSeconds();
    if (typeof iat !== 'number' || !Number.isFinite(iat)) throw invalid('the DPoP proof has no valid iat');
    if (iat < now - this.maxAge || iat > now + this.skew) {
      throw invalid('the DPoP proof iat is outside the accepted window');
    }
    if (this.options.nonces !== undefined) {
      if (typeof nonce !== 'string' || !this.options.nonces.accepts(nonce)) {
        throw new DpopProofError(
          'use_dpop_nonce',
          'Authorization server requires nonce in DPoP proof',
          this.options.nonces.current(),
        );
      }
    }
    if (check.accessToken !== undefined) {
      if (typeof ath !== 'string') throw invalid('the DPoP proof has no ath');
      if (!sameText(ath, dpopAccessTokenHash(check.accessToken))) {
        throw invalid('the DPoP proof ath does not match the access token');
      }
    }
    // Last, so only a proof valid in every other way takes room in the replay cache.
    if (!this.replays.claim(`${jkt}:${jti}`, now)) throw invalid('the DPoP proof was already used');
    return { jkt, jti, iat };
  }

  /**
   * typ, an allowed alg, a public jwk that fits it: the header's checks, remembered by its
   * encoded form once they pass (nothing of a refused header is kept).
   */
  private judgeHeader(encodedHeader: string): JudgedHeader {
    const header = decodeJsonPart(encodedHeader);
    if (header === undefined) throw invalid('the DPoP proof header is malformed');
    if (header.typ !== 'dpop+jwt') throw invalid('the DPoP proof typ must be dpop+jwt');
    const alg = header.alg;
    if (typeof alg !== 'string' || !(DPOP_ALGORITHMS as readonly string[]).includes(alg)) {
      throw invalid('the DPoP proof alg is not allowed');
    }
    if (header.crit !== undefined || header.b64 !== undefined) {
      throw invalid('the DPoP proof header is not supported');
    }
    const jwk = header.jwk;
    if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) {
      throw invalid('the DPoP proof carries no jwk');
    }
    const members = jwk as Record<string, unknown>;
    if (PRIVATE_MEMBERS.some((member) => members[member] !== undefined)) {
      throw invalid('the DPoP proof jwk must be a public key');
    }
    const jkt = jwkThumbprint(members);
    if (jkt === undefined) throw invalid('the DPoP proof jwk is not a usable public key');
    const judged = { alg: alg as DpopAlgorithm, jkt, key: this.keyOf(jkt, members, alg as DpopAlgorithm) };
    this.headers.set(encodedHeader, judged);
    return judged;
  }

  /** The proof's key, imported once per thumbprint (a client signs every proof with one key). */
  private keyOf(jkt: string, members: Record<string, unknown>, alg: DpopAlgorithm): KeyObject {
    let key = this.keys.get(jkt);
    if (key === undefined) {
      try {
        key = createPublicKey({ key: publicMembers(members), format: 'jwk' });
      } catch {
        throw invalid('the DPoP proof jwk is not a usable public key');
      }
      this.keys.set(jkt, key);
    }
    if (!keyFits(key, alg)) throw invalid('the DPoP proof jwk does not fit its alg');
    return key;
  }
}

/** The base64url SHA-256 of an access token: a proof's `ath` (RFC 9449 section 4.2). */
export function dpopAccessTokenHash(token: string): string {
  return hash('sha256', token, 'base64url');
}

/**
 * RFC 7638 SHA-256 thumbprint of a public JWK: the required members only, in lexical order.
 * Undefined for a key type or member that is not usable.
 */
export function jwkThumbprint(jwk: Record<string, unknown>): string | undefined {
  const required = REQUIRED_MEMBERS[jwk.kty as string];
  if (required === undefined) return undefined;
  const canonical: Record<string, string> = {};
  for (const member of required) {
    const value = jwk[member];
    if (typeof value !== 'string' || value === '') return undefined;
    canonical[member] = value;
  }
  return hash('sha256', JSON.stringify(canonical), 'base64url');
}

/** RFC 7638 section 3.2: the members of each key type that make its thumbprint, sorted. */
const REQUIRED_MEMBERS: Record<string, readonly string[]> = {
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
  OKP: ['crv', 'kty', 'x'],
};
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

function publicMembers(jwk: Record<string, unknown>): { kty: string } & Record<string, string> {
  const members: Record<string, string> = {};
  for (const member of REQUIRED_MEMBERS[jwk.kty as string]) members[member] = jwk[member] as string;
  return members as { kty: string } & Record<string, string>;
}

function keyFits(key: KeyObject, alg: DpopAlgorithm): boolean {
  const type = key.asymmetricKeyType;
  switch (alg) {
    case 'RS256':
    case 'PS256':
      return type === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048;
    case 'ES256':
      return type === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
    case 'ES384':
      return type === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'secp384r1';
    case 'EdDSA':
      return type === 'ed25519';
  }
}

function verifySignature(alg: DpopAlgorithm, input: string, signature: string, key: KeyObject): boolean {
  const data = Buffer.from(input);
  const bytes = Buffer.from(signature, 'base64url');
  try {
    switch (alg) {
      case 'RS256':
        return verify('sha256', data, key, bytes);
      case 'PS256':
        return verify(
          'sha256',
          data,
          { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
          bytes,
        );
      case 'ES256':
        return verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, bytes);
      case 'ES384':
        return verify('sha384', data, { key, dsaEncoding: 'ieee-p1363' }, bytes);
      case 'EdDSA':
        return verify(null, data, key, bytes);
    }
  } catch {
    return false;
  }
}

/**
 * `htu` names the request's URL without query and fragment (RFC 9449 section 4.3, point 9):
 * compared after URL parsing (scheme and host case, default port, dot segments normalised).
 */
function sameTarget(htu: string, url: string): boolean {
  // The common case, a client naming the URL exactly as it is checked, costs no parsing.
  if (htu === url) return true;
  const claimed = targetOf(htu);
  return claimed !== undefined && claimed === targetOf(url);
}

function targetOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const invalid = (description: string) => new DpopProofError('invalid_dpop_proof', description);

/** Most proof ids one process remembers (about 150 bytes each: ~150 MB at the bound). */
export const DPOP_REPLAY_MAX_ENTRIES = 1_000_000;

/**
 * The `jti`s of the proofs one process accepted, each kept as long as a proof with it could still
 * pass the `iat` window (max age + skew), in buckets of a few seconds dropped whole: memory is
 * the proof rate times the window, bounded by `maxEntries`. At the bound it refuses new proofs
 * (fail closed: a replay is never let through because the cache was full).
 *
 * Per process: a proof replayed to another replica (another backend, sidecar or control plane)
 * within the window is not seen here. What that buys an attacker is bounded: the proof names one
 * method and URL, carries the `ath` of one token and dies after the window; it still needs the
 * bound token, and the key never leaves the client (docs/tokens.md, "DPoP").
 */
export class DpopReplayCache {
  private readonly buckets = new Map<number, Set<string>>();
  private entries = 0;

  constructor(
    private readonly windowSeconds: number = DPOP_MAX_AGE_SECONDS + DPOP_CLOCK_SKEW_SECONDS,
    private readonly maxEntries: number = DPOP_REPLAY_MAX_ENTRIES,
    private readonly bucketSeconds = 5,
  ) {}

  get size(): number {
    return this.entries;
  }

  /** True the first time `id` is claimed within the window; false for a replay (or when full). */
  claim(id: string, nowSeconds: number): boolean {
    const current = Math.floor(nowSeconds / this.bucketSeconds);
    this.expire(current);
    for (const bucket of this.buckets.values()) if (bucket.has(id)) return false;
    if (this.entries >= this.maxEntries) return false;
    let bucket = this.buckets.get(current);
    if (bucket === undefined) {
      bucket = new Set();
      this.buckets.set(current, bucket);
    }
    bucket.add(id);
    this.entries++;
    return true;
  }

  /** Drops the buckets whose every id is older than the window (one more kept for the bucket's own span). */
  private expire(current: number): void {
    const oldest = current - Math.ceil(this.windowSeconds / this.bucketSeconds) - 1;
    for (const [index, bucket] of this.buckets) {
      if (index >= oldest) continue;
      this.entries -= bucket.size;
      this.buckets.delete(index);
    }
  }
}

/**
 * Server nonces (RFC 9449 section 8), stateless so that every replica accepts every other's: a
 * nonce is a time step and its HMAC under a secret the replicas share. The current step's nonce
 * and the previous one are accepted, so a nonce lives one to two steps.
 */
export class DpopNonces {
  constructor(
    private readonly secret: Buffer,
    private readonly nowSeconds: () => number,
    private readonly stepSeconds = 300,
  ) {}

  current(): string {
    return this.nonceOf(Math.floor(this.nowSeconds() / this.stepSeconds));
  }

  accepts(nonce: string): boolean {
    const step = Math.floor(this.nowSeconds() / this.stepSeconds);
    return sameText(nonce, this.nonceOf(step)) || sameText(nonce, this.nonceOf(step - 1));
  }

  private nonceOf(step: number): string {
    const mac = createHmac('sha256', this.secret)
      .update(`dpop-nonce:${step}`)
      .digest('base64url')
      .slice(0, 22);
    return `${step.toString(36)}.${mac}`;
  }
}

/** A map that forgets everything once it holds `max` entries (keys repeat: one per client key). */
class BoundedMap<V> {
  private readonly values = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    return this.values.get(key);
  }

  set(key: string, value: V): void {
    if (this.values.size >= this.max) this.values.clear();
    this.values.set(key, value);
  }
}
