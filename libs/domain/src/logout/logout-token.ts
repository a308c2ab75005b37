import type { Clock } from '../clock';
import type { SigningKeyRing } from '../keys/signing-key-ring';
import { signRs256 } from '../tokens/jws';
import { newTokenId } from '../tokens/token-id';

/** The event a logout token carries (OpenID Connect Back-Channel Logout 1.0 section 2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** The JOSE `typ` of logout tokens (section 2.4): no ID token or access token passes for one. */
export const LOGOUT_TOKEN_TYPE = 'logout+jwt';

/** A logout token is good for two minutes: it is made fresh for every delivery attempt. */
export const LOGOUT_TOKEN_LIFETIME_SECONDS = 120;

export interface LogoutTokenClaims {
  iss: string;
  aud: string;
  iat: number;
  exp: number;
  jti: string;
  sub: string;
  sid: string;
  events: { [BACKCHANNEL_LOGOUT_EVENT]: Record<string, never> };
}

export interface LogoutTokenSubject {
  clientId: string;
  /** The user, as the ID tokens name them (`sub`). */
  subject: string;
  /** The ended session, as the ID tokens name it (`sid`). */
  sid: string;
}

/**
 * Signs logout tokens (Back-Channel Logout 1.0 section 2.4) with the platform's key ring, as
 * ID tokens are: RS256, `typ: logout+jwt`, both `sub` and `sid`, never a `nonce`.
 */
export class LogoutTokenIssuer {
  constructor(
    private readonly keys: Pick<SigningKeyRing, 'signingKey'>,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  issue(subject: LogoutTokenSubject): Promise<string> {
    const now = this.clock.now().getTime();
    const iat = Math.floor(now / 1000);
    const claims: LogoutTokenClaims = {
      iss: this.issuer,
      aud: subject.clientId,
      iat,
      exp: iat + LOGOUT_TOKEN_LIFETIME_SECONDS,
      jti: newTokenId(now),
      sub: subject.subject,
      sid: subject.sid,
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    };
    const { kid, privateKey } = this.keys.signingKey();
    return signRs256({ alg: 'RS256', typ: LOGOUT_TOKEN_TYPE, kid }, claims, privateKey);
  }
}
