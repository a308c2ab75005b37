import { Controller, Get, Header, HttpCode, Post, Query, Req, Res, UnsupportedMediaTypeException } from '@nestjs/common';
import { BearerError, OAuthError, parseOAuthForm, validationFailed } from '@platform/domain';
import { mediaType, type PlatformRequest, readBearerToken } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { LocalRevocation } from '../auth/local-revocation';
import { AppLoginClient } from '../clients/app-login.client';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { SidecarClient } from '../clients/sidecar.client';
import { TokenRevocationClient } from '../clients/token-revocation.client';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';
import { meFromClaims, type MeResponse } from '../me/me.controller';
import { noStore } from '../oauth/oauth.controller';

/** The app's view of a user grant's tokens (`POST /api/v1/auth/exchange` and `/refresh`). */
export interface AppTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  scope: string;
}

export type Validation = ({ active: true } & MeResponse) | { active: false };

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/**
 * The app-facing token operations of the user-forwarding model (docs/internal-api.md): thin
 * translations onto what exists already (the login code exchange and the refresh_token grant in
 * the control plane, the sidecar's ValidateToken and RevokeToken, the token endpoint). The app
 * calls them server-to-server; no token ever travels in a URL the browser sees.
 */
@Controller('api/v1/auth')
export class AuthTokensController {
  constructor(
    private readonly appLogin: AppLoginClient,
    private readonly sidecar: SidecarClient,
    private readonly revocation: TokenRevocationClient,
    private readonly localRevocation: LocalRevocation,
    private readonly relay: ControlPlaneRelay,
  ) {}

  /** JSON `{code}`: the one-time login code for `{accessToken, refreshToken, ...}`. */
  @Post('exchange')
  async exchange(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const code = optionalString(jsonObject(request).code);
    await sendAppTokens(reply, await this.appLogin.exchange(code));
  }

  /** JSON `{refreshToken}`: rotation rules of the refresh_token grant. */
  @Post('refresh')
  async refresh(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const refreshToken = optionalString(jsonObject(request).refreshToken);
    await sendAppTokens(reply, await this.appLogin.refresh(refreshToken));
  }

  @Get('validate')
  @Header('Cache-Control', 'no-store')
  validateQuery(@Query('token') token: unknown): Promise<Validation> {
    return this.validate(requiredToken(token));
  }

  /** JSON `{token}`: keeps the token out of URLs and their logs. */
  @Post('validate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  validateBody(@Req() request: PlatformRequest): Promise<Validation> {
    return this.validate(requiredToken(jsonObject(request).token));
  }

  /** Revokes the Bearer token itself; 200 also for expired or unknown tokens. */
  @Post('revoke')
  @HttpCode(200)
  async revoke(@Req() request: PlatformRequest): Promise<object> {
    const token = readBearerToken(request.headers.authorization);
    await this.revocation.revokeToken(token);
    await this.localRevocation.applyNow(token);
    return {};
  }

  /** client_credentials (form body), answered as `/v1/oauth/token` does; other grants refused. */
  @Post('token')
  token(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    if (mediaType(request) === 'application/x-www-form-urlencoded') {
      const grantType = parseOAuthForm(request.rawBody ?? '').grant_type;
      if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
      if (grantType !== 'client_credentials') {
        throw new OAuthError(
          'unsupported_grant_type',
          `grant_type ${grantType} is not supported here; only client_credentials`,
        );
      }
    }
    return this.relay.forward(request, reply, { to: '/internal/v1/oauth/token', body: 'form', then: noStore });
  }

  /** Active with the claims, or `{active: false}` for any token the sidecar refuses. */
  private async validate(token: string): Promise<Validation> {
    try {
      return { active: true, ...meFromClaims(await this.sidecar.validateToken(token)) };
    } catch (error) {
      if (error instanceof BearerError) return { active: false };
      throw error;
    }
  }
}

/** The control plane's RFC 6749 answer as the app's camelCase tokens; its errors as they are. */
async function sendAppTokens(reply: FastifyReply, response: UpstreamResponse): Promise<void> {
  if (response.status !== 200) {
    void reply.status(response.status).headers({ ...response.headers, 'cache-control': 'no-store' });
    return void (await reply.send(response.body.length > 0 ? response.body : undefined));
  }
  const token = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
  const body: AppTokens = {
    accessToken: String(token.access_token),
    refreshToken: String(token.refresh_token),
    tokenType: 'Bearer',
    expiresIn: Number(token.expires_in),
    scope: String(token.scope ?? ''),
  };
  void reply.status(200).headers(NO_STORE);
  await reply.send(body);
}

/** A JSON object body; any other media type is 415, anything else 400 problem+json. */
function jsonObject(request: PlatformRequest): Record<string, unknown> {
  if (mediaType(request) !== 'application/json') {
    throw new UnsupportedMediaTypeException('The request body must be application/json');
  }
  try {
    const value: unknown = JSON.parse(request.rawBody ?? '');
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // reported below
  }
  throw validationFailed('the body must be a JSON object');
}

const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

function requiredToken(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw validationFailed('token is required');
  return value;
}
