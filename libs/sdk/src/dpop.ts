import type { webcrypto } from 'node:crypto';

/**
 * DPoP (RFC 9449): a key pair of the client's own, whose proofs go with every token request and
 * every call with a bound token, so a stolen token is useless without the private key. WebCrypto
 * only (Node 20 and browsers alike); the private key may be non-extractable.
 */

// Types only (erased): the global WebCrypto of Node 20 and of browsers is what runs.
type CryptoKeyPair = webcrypto.CryptoKeyPair;
type SignParams = webcrypto.AlgorithmIdentifier | webcrypto.EcdsaParams | webcrypto.RsaPssParams;
type GenerateParams =
  webcrypto.AlgorithmIdentifier | webcrypto.EcKeyGenParams | webcrypto.RsaHashedKeyGenParams;

/** The proof algorithms the platform accepts (its metadata's `dpop_signing_alg_values_supported`). */
export type DpopAlgorithm = 'ES256' | 'ES384' | 'PS256' | 'RS256' | 'EdDSA';

const SIGN_PARAMS: Record<DpopAlgorithm, SignParams> = {
  ES256: { name: 'ECDSA', hash: 'SHA-256' } as webcrypto.EcdsaParams,
  ES384: { name: 'ECDSA', hash: 'SHA-384' } as webcrypto.EcdsaParams,
  PS256: { name: 'RSA-PSS', saltLength: 32 } as webcrypto.RsaPssParams,
  RS256: { name: 'RSASSA-PKCS1-v1_5' },
  EdDSA: { name: 'Ed25519' },
};

const GENERATE_PARAMS: Record<DpopAlgorithm, GenerateParams> = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' } as webcrypto.EcKeyGenParams,
  ES384: { name: 'ECDSA', namedCurve: 'P-384' } as webcrypto.EcKeyGenParams,
  PS256: rsa('RSA-PSS'),
  RS256: rsa('RSASSA-PKCS1-v1_5'),
  EdDSA: { name: 'Ed25519' },
};

function rsa(name: string): webcrypto.RsaHashedKeyGenParams {
  return { name, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
}

/** The members of a public JWK that describe it (RFC 7638), per key type. */
const PUBLIC_MEMBERS: Record<string, readonly string[]> = {
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
  OKP: ['crv', 'kty', 'x'],
};

/** What a proof names besides the request: the bound token it goes with, a server nonce. */
export interface DpopProofOptions {
  /** The access token sent with the proof (a resource call): its hash becomes `ath`. */
  accessToken?: string;
  /** The last `DPoP-Nonce` the server handed out. */
  nonce?: string;
}

/**
 * One DPoP key: `proof(method, url)` signs a fresh proof (a new `jti`, `iat` now) for one
 * request. The SDK's OAuthClient and PlatformClient take it as their `dpop` option. It also
 * remembers the last nonce each server handed out (`DPoP-Nonce`), per origin.
 */
export class DpopKey {
  private readonly nonces = new Map<string, string>();

  private constructor(
    private readonly keyPair: CryptoKeyPair,
    readonly algorithm: DpopAlgorithm,
    private readonly jwk: Record<string, string>,
  ) {}

  /** A new key pair (ES256 by default), its private key not extractable. */
  static async generate(algorithm: DpopAlgorithm = 'ES256'): Promise<DpopKey> {
    const keyPair = (await crypto.subtle.generateKey(GENERATE_PARAMS[algorithm], false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    return DpopKey.fromKeyPair(keyPair, algorithm);
  }

  /** A key pair the application keeps (e.g. in IndexedDB): its public key must be extractable. */
  static async fromKeyPair(keyPair: CryptoKeyPair, algorithm: DpopAlgorithm = 'ES256'): Promise<DpopKey> {
    const exported = (await crypto.subtle.exportKey('jwk', keyPair.publicKey)) as Record<string, unknown>;
    const members = PUBLIC_MEMBERS[exported.kty as string];
    if (members === undefined)
      throw new TypeError(`a DPoP key of type ${String(exported.kty)} is not supported`);
    const jwk = Object.fromEntries(members.map((member) => [member, String(exported[member])]));
    return new DpopKey(keyPair, algorithm, jwk);
  }

  /** The RFC 7638 thumbprint of the public key: a bound token's `cnf.jkt`. */
  async thumbprint(): Promise<string> {
    return base64url(await sha256(JSON.stringify(this.jwk)));
  }

  /** A proof for one request: `htm` the method, `htu` the URL without query and fragment. */
  async proof(method: string, url: string, options: DpopProofOptions = {}): Promise<string> {
    const target = new URL(url);
    const nonce = options.nonce ?? this.nonces.get(target.origin);
    const header = { typ: 'dpop+jwt', alg: this.algorithm, jwk: this.jwk };
    const payload = {
      jti: base64url(crypto.getRandomValues(new Uint8Array(16))),
      htm: method.toUpperCase(),
      htu: `${target.origin}${target.pathname}`,
      iat: Math.floor(Date.now() / 1000),
      ...(options.accessToken !== undefined && { ath: base64url(await sha256(options.accessToken)) }),
      ...(nonce !== undefined && { nonce }),
    };
    const input = `${base64url(encode(JSON.stringify(header)))}.${base64url(encode(JSON.stringify(payload)))}`;
    const signature = await crypto.subtle.sign(
      SIGN_PARAMS[this.algorithm],
      this.keyPair.privateKey,
      encode(input),
    );
    return `${input}.${base64url(new Uint8Array(signature))}`;
  }

  /**
   * Remembers the `DPoP-Nonce` of a response (RFC 9449 section 8), for the next proof to that
   * origin; true when it is new, so a `use_dpop_nonce` refusal is worth one more try.
   */
  rememberNonce(url: string, response: Pick<Response, 'headers'>): boolean {
    const nonce = response.headers.get('dpop-nonce');
    if (nonce === null) return false;
    const origin = new URL(url).origin;
    const fresh = this.nonces.get(origin) !== nonce;
    this.nonces.set(origin, nonce);
    return fresh;
  }
}

/** Whether a response asks for a (new) server nonce: `use_dpop_nonce` (RFC 9449 sections 8 and 9). */
export function asksForNonce(response: Pick<Response, 'status' | 'headers'>): boolean {
  if (response.status === 401)
    return /error="use_dpop_nonce"/.test(response.headers.get('www-authenticate') ?? '');
  return response.status === 400 && response.headers.get('dpop-nonce') !== null;
}

function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encode(text)));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
