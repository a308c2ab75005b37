import { Injectable } from '@nestjs/common';
import { BearerError, OAuthError, parseOAuthForm } from '@platform/domain';
import { LocalRevocation } from '../auth/local-revocation';
import { AppLoginClient } from '../clients/app-login.client';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { SidecarClient } from '../clients/sidecar.client';
import { TokenRevocationClient } from '../clients/token-revocation.client';
import type { Caller } from '../http/caller';
import { meFromClaims, type MeResponse } from '../me/me.controller';
import { OAuthService } from '../oauth/oauth.service';

/** The app's view of a user grant's tokens (`POST /api/v1/auth/exchange` and `/refresh`). */
export interface AppTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  scope: string;
}

export type Validation = ({ active: true } & MeResponse) | { active: false };

/** An answer to relay: the control plane's error as it is, or our JSON body. */
export type FamilyAnswer =
  { kind: 'json'; status: number; body: object } | { kind: 'relay'; response: UpstreamResponse };

/**
 * The login and service-account family (`/api/v1/auth/*`): thin translations onto what exists
 * already: the login code exchange and the refresh_token grant in the control plane, the
 * sidecar's ValidateToken and RevokeToken, and the token endpoint for client_credentials.
 */
@Injectable()
export class AuthFamilyService {
  constructor(
    private readonly appLogin: AppLoginClient,
    private readonly sidecar: SidecarClient,
    private readonly revocation: TokenRevocationClient,
    private readonly oauth: OAuthService,
    private readonly localRevocation: LocalRevocation,
  ) {}

  async exchange(code: string | undefined, caller: Caller): Promise<FamilyAnswer> {
    return toAppTokens(await this.appLogin.exchange(code, caller.requestId));
  }

  async refresh(refreshToken: string | undefined, caller: Caller): Promise<FamilyAnswer> {
    return toAppTokens(await this.appLogin.refresh(refreshToken, caller.requestId));
  }

  /** Active with the claims, or `{active: false}` for any token the sidecar refuses. */
  async validate(token: string, caller: Caller): Promise<Validation> {
    try {
      return { active: true, ...meFromClaims(await this.sidecar.validateToken(token, caller.requestId)) };
    } catch (error) {
      if (error instanceof BearerError) return { active: false };
      throw error;
    }
  }

  /** Revokes the caller's own Bearer token; unknown and expired tokens too answer 200. */
  async revoke(token: string, caller: Caller): Promise<void> {
    await this.revocation.revokeToken(token, caller.requestId);
    await this.localRevocation.applyNow(caller.requestId, token);
  }

  /** The token endpoint, for client_credentials only. */
  async token(form: string, caller: Caller): Promise<UpstreamResponse> {
    const grantType = parseOAuthForm(form).grant_type;
    if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
    if (grantType !== 'client_credentials') {
      throw new OAuthError(
        'unsupported_grant_type',
        `grant_type ${grantType} is not supported here; only client_credentials`,
      );
    }
    return this.oauth.forward('token', form, caller);
  }
}

function toAppTokens(response: UpstreamResponse): FamilyAnswer {
  response.headers['cache-control'] = 'no-store';
  if (response.status !== 200) return { kind: 'relay', response };
  const token = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
  const body: AppTokens = {
    accessToken: String(token.access_token),
    refreshToken: String(token.refresh_token),
    tokenType: 'Bearer',
    expiresIn: Number(token.expires_in),
    scope: String(token.scope ?? ''),
  };
  return { kind: 'json', status: 200, body };
}
