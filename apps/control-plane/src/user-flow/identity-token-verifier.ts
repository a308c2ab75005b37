import { DomainError, type ExternalIdentity } from '@platform/domain';
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';

/** The identity provider the backend signs users in with (OIDC_ISSUER, OIDC_CLIENT_ID). */
export interface IdentityProviderSettings {
  issuer: string | undefined;
  clientId: string | undefined;
  /**
   * Where this process fetches the provider's keys (OIDC_JWKS_URL), when its network knows the
   * provider under another name than the issuer's (a container beside the browser's). Discovery
   * is skipped; the issuer is still checked against OIDC_ISSUER.
   */
  jwksUrl?: string;
}

/** What the backend hands over after the login: the provider's ID token, and its UserInfo answer. */
export interface SignedInIdentity {
  idToken: string;
  userInfo?: Record<string, unknown>;
}

const DISCOVERY_TIMEOUT_MS = 5_000;
const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** What the token itself is to blame for; anything else (the key set unreachable, a 5xx) is the provider being down. */
const REFUSALS = [
  errors.JWSInvalid,
  errors.JWTInvalid,
  errors.JWSSignatureVerificationFailed,
  errors.JWTClaimValidationFailed,
  errors.JWTExpired,
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
];
const unavailable = () =>
  new DomainError('unavailable', 'The identity provider is unavailable; please try again shortly');

/**
 * The control plane's own check of who signed in: the ID token the backend got, verified against
 * the identity provider's published keys (signature, issuer, audience OIDC_CLIENT_ID, expiry). The
 * user's tenant and roles are read from its signed claims only; UserInfo, which nobody signs,
 * may add `email` and `name`, nothing else. So holding INTERNAL_TOKEN opens no session with roles
 * the provider did not sign. Discovery happens at first use and a failure is not remembered.
 */
export class IdentityTokenVerifier {
  private provider: Promise<{ issuer: string; keys: JWTVerifyGetKey }> | undefined;

  constructor(
    private readonly settings: IdentityProviderSettings,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  async verify({ idToken, userInfo }: SignedInIdentity): Promise<ExternalIdentity> {
    const { issuer, keys } = await this.discovered();
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(idToken, keys, {
        issuer,
        audience: this.settings.clientId,
        algorithms: ASYMMETRIC,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      if (!REFUSALS.some((refusal) => error instanceof refusal)) throw unavailable();
      throw new DomainError(
        'unauthenticated',
        `the ID token is not the identity provider's (${(error as InstanceType<(typeof REFUSALS)[number]>).code})`,
      );
    }
    const subject = claims.sub as string;
    return { issuer, subject, claims: { ...profileOf(userInfo, subject), ...claims } };
  }

  /** The provider's issuer and key set, from its discovery document (OpenID Connect Discovery 1.0). */
  private discovered(): Promise<{ issuer: string; keys: JWTVerifyGetKey }> {
    const { issuer, clientId } = this.settings;
    if (issuer === undefined || clientId === undefined) {
      return Promise.reject(new DomainError('unavailable', 'No identity provider is configured for sign-in'));
    }
    if (this.settings.jwksUrl !== undefined) {
      this.provider ??= Promise.resolve({ issuer, keys: createRemoteJWKSet(new URL(this.settings.jwksUrl)) });
    }
    this.provider ??= this.discover(issuer).catch((error: unknown) => {
      this.provider = undefined; // retried at the next login
      throw error instanceof DomainError ? error : unavailable();
    });
    return this.provider;
  }

  private async discover(issuer: string): Promise<{ issuer: string; keys: JWTVerifyGetKey }> {
    const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const response = await this.fetchFn(url, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
    if (!response.ok) throw unavailable();
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    // The document must be the configured provider's own (OpenID Connect Discovery 1.0, 4.3).
    if (metadata.issuer !== issuer || typeof metadata.jwks_uri !== 'string') throw unavailable();
    return { issuer, keys: createRemoteJWKSet(new URL(metadata.jwks_uri)) };
  }
}

/** `email` and `name` from a UserInfo answer about the same subject; nothing that grants anything. */
function profileOf(userInfo: Record<string, unknown> | undefined, subject: string): Record<string, unknown> {
  if (userInfo?.sub !== subject) return {};
  return Object.fromEntries(Object.entries(userInfo).filter(([name]) => name === 'email' || name === 'name'));
}
