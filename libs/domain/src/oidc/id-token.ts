import { createHash } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import type { Clock } from '../clock';
import type { SigningKeyRing } from '../keys/signing-key-ring';
import type { SessionStamp } from '../sessions/session';
import { signRs256 } from '../tokens/jws';

export const ID_TOKEN_LIFETIME_SECONDS = 3600;

/** The JOSE `typ` of our ID tokens: never `at+jwt`, so neither kind passes for the other. */
export const ID_TOKEN_TYPE = 'JWT';

/** The claims an ID token may carry, as discovery lists them. */
export const ID_TOKEN_CLAIMS = [
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'at_hash',
  'sid',
  'amr',
] as const;

/** OpenID Connect Core section 2 claims of an ID token the platform issues. */
export interface IdTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  auth_time?: number;
  nonce?: string;
  at_hash: string;
  sid?: string;
  /** RFC 8176: the user authenticated at a federated identity provider. */
  amr?: string[];
}

export interface IdTokenSubject {
  clientId: string;
  userId: string;
  /** The access token issued beside it, hashed into `at_hash`. */
  accessToken: string;
  nonce?: string;
  session?: SessionStamp;
}

/** Core section 3.1.3.6: the left half of the SHA-256 of the access token, base64url. */
export function accessTokenHash(accessToken: string): string {
  const digest = createHash('sha256').update(accessToken, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

/** Signs ID tokens with the platform's key ring and recognises them again as `id_token_hint`. */
export class IdTokenIssuer {
  constructor(
    private readonly keys: SigningKeyRing,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  issue(subject: IdTokenSubject): Promise<string> {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims: IdTokenClaims = {
      iss: this.issuer,
      sub: subject.userId,
      aud: subject.clientId,
      exp: iat + ID_TOKEN_LIFETIME_SECONDS,
      iat,
      ...(subject.nonce !== undefined && { nonce: subject.nonce }),
      at_hash: accessTokenHash(subject.accessToken),
      ...(subject.session && {
        auth_time: Math.floor(subject.session.authTime.getTime() / 1000),
        sid: subject.session.sid,
        amr: ['fed'],
      }),
    };
    const { kid, privateKey } = this.keys.signingKey();
    return signRs256({ alg: 'RS256', typ: ID_TOKEN_TYPE, kid }, claims, privateKey);
  }

  /**
   * The claims of an ID token this platform issued (expired or not: a hint names a past login,
   * Core section 3.1.2.1), or null for anything else, an access token included.
   */
  async verifyHint(token: string): Promise<IdTokenClaims | null> {
    try {
      const { kid } = decodeProtectedHeader(token);
      const key = kid === undefined ? undefined : this.keys.verificationKey(kid);
      if (!key) return null;
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['RS256'],
        typ: ID_TOKEN_TYPE,
        issuer: this.issuer,
        requiredClaims: ['sub', 'aud', 'iat'],
        currentDate: new Date(0),
      });
      return payload as unknown as IdTokenClaims;
    } catch {
      return null;
    }
  }
}
