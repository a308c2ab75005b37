import fastifyCookie, { type CookieSerializeOptions } from '@fastify/cookie';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { PlatformConfig } from '@platform/config';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Seconds a login may take between leaving for the identity provider and coming back. */
export const LOGIN_TRANSACTION_TTL_SECONDS = 600;

/** Names and attributes of the backend's two cookies, derived once from the configuration. */
export interface CookieSettings {
  secure: boolean;
  /** The browser session (an opaque value the control plane issued). */
  session: string;
  /** The sealed login transaction (state, nonce, PKCE verifier, return_to). */
  loginTransaction: string;
  /** The sealed SAML sign-in (its AuthnRequest's ID, return_to): docs/saml.md. */
  samlTransaction: string;
}

/**
 * `Secure` and the `__Host-` prefix (RFC 6265bis: Secure, Path=/, no Domain, so no sibling
 * host can plant or read them) everywhere except plain-HTTP development and test.
 */
export function cookieSettings(config: Pick<PlatformConfig, 'nodeEnv' | 'issuer'>): CookieSettings {
  const plainHttpAllowed = config.nodeEnv === 'development' || config.nodeEnv === 'test';
  const secure = !plainHttpAllowed || config.issuer.startsWith('https:');
  const prefix = secure ? '__Host-' : '';
  return {
    secure,
    session: `${prefix}session`,
    loginTransaction: `${prefix}login`,
    samlTransaction: `${prefix}saml`,
  };
}

/** Reads and writes the backend's cookies: HttpOnly, SameSite=Lax, Path=/ (and Secure, see above). */
export class BrowserCookies {
  constructor(readonly settings: CookieSettings) {}

  session(request: FastifyRequest): string | undefined {
    return nonEmpty(request.cookies?.[this.settings.session]);
  }

  setSession(reply: FastifyReply, session: string, maxAgeSeconds: number): void {
    void reply.setCookie(this.settings.session, session, this.options(maxAgeSeconds));
  }

  clearSession(reply: FastifyReply): void {
    void reply.clearCookie(this.settings.session, this.options());
  }

  loginTransaction(request: FastifyRequest): string | undefined {
    return nonEmpty(request.cookies?.[this.settings.loginTransaction]);
  }

  setLoginTransaction(reply: FastifyReply, sealed: string): void {
    void reply.setCookie(this.settings.loginTransaction, sealed, this.options(LOGIN_TRANSACTION_TTL_SECONDS));
  }

  clearLoginTransaction(reply: FastifyReply): void {
    void reply.clearCookie(this.settings.loginTransaction, this.options());
  }

  samlTransaction(request: FastifyRequest): string | undefined {
    return nonEmpty(request.cookies?.[this.settings.samlTransaction]);
  }

  /**
   * The SAML sign-in's cookie comes back on the IdP's cross-site form POST (HTTP-POST binding),
   * which a `SameSite=Lax` cookie does not: it is `SameSite=None` (so `Secure`). On plain-HTTP
   * development and test (no `Secure`) it stays Lax, and the IdP must be same-site.
   */
  setSamlTransaction(reply: FastifyReply, sealed: string): void {
    void reply.setCookie(
      this.settings.samlTransaction,
      sealed,
      this.samlOptions(LOGIN_TRANSACTION_TTL_SECONDS),
    );
  }

  clearSamlTransaction(reply: FastifyReply): void {
    void reply.clearCookie(this.settings.samlTransaction, this.samlOptions());
  }

  private samlOptions(maxAgeSeconds?: number): CookieSerializeOptions {
    return { ...this.options(maxAgeSeconds), sameSite: this.settings.secure ? 'none' : 'lax' };
  }

  private options(maxAgeSeconds?: number): CookieSerializeOptions {
    return {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: this.settings.secure,
      ...(maxAgeSeconds !== undefined && { maxAge: Math.max(0, Math.floor(maxAgeSeconds)) }),
    };
  }
}

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;

/** Cookie parsing for the browser routes; call before `app.init()` / `app.listen()`. */
export async function registerCookieParser(app: NestFastifyApplication): Promise<void> {
  await app.register(fastifyCookie as unknown as Parameters<NestFastifyApplication['register']>[0]);
}
