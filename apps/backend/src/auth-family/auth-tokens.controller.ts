import {
  applyDecorators,
  Controller,
  Get,
  Header,
  HttpCode,
  Post,
  Query,
  Req,
  Res,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { ApiExtraModels, ApiQuery, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import {
  ActiveTokenValidationDto,
  Answers,
  AppClientOperation,
  AppRefreshRequestDto,
  AppTokensDto,
  BearerOperation,
  ClientCredentialsTokenRequestDto,
  CodeExchangeRequestDto,
  DeclaresAuthority,
  EmptyObjectDto,
  InactiveIntrospectionDto,
  JsonBody,
  type MeDto,
  NO_STORE,
  OAuthErrorDto,
  OAuthOperation,
  OAuthRefusal,
  PRESENTED_TOKEN,
  ProblemDto,
  PublicOperation,
  RateLimited,
  Refuses,
  ServerFailures,
  TokenResponseDto,
  ValidateRequestDto,
  VALIDATION_AUDIENCE_DESCRIPTION,
  type AppClientDto,
} from '@platform/contract';
import {
  basicCredentials,
  BearerError,
  OAuthError,
  parseOAuthForm,
  validationFailed,
} from '@platform/domain';
import { mediaType, OAUTH_NO_STORE, type PlatformRequest, readBearerToken } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { LocalRevocation } from '../auth/local-revocation';
import { AppLoginClient } from '../clients/app-login.client';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { SidecarClient } from '../clients/sidecar.client';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';
import { ClientRateLimits } from '../oauth/client-rate-limits';
import { meFromClaims } from '../me/me.controller';
import { noStore, TOKEN_REFUSALS } from '../oauth/oauth.controller';

/** The app-family answer to a refused grant: RFC 6749 JSON, or problem details for a bad body. */
const GrantRefused = (description: string) =>
  applyDecorators(
    ApiExtraModels(OAuthErrorDto, ProblemDto),
    ApiResponse({
      status: 400,
      description,
      content: {
        'application/json': { schema: { $ref: getSchemaPath(OAuthErrorDto) } },
        'application/problem+json': { schema: { $ref: getSchemaPath(ProblemDto) } },
      },
    }),
  );

const Judgement = () =>
  Answers(200, ActiveTokenValidationDto, 'The judgement.', {
    oneOf: [ActiveTokenValidationDto, InactiveIntrospectionDto],
  });

const VALIDATE_DESCRIPTION =
  'Asks the sidecar whether a token is valid (signature, expiry, audience, deny-list, app still registered). The answer body is "not shown" in the specification; decided: **200** `{active: true, sub, client_id, scope, tenant?, roles?, exp, act?, impersonation?}` or exactly `{active: false}`; an invalid token is not an error. A resource server names itself with `audience` (its registered resource URI, RFC 8707): only a token for exactly that audience is active; without it, only a token for the platform itself (`aud` = the issuer). No credential of its own.';

export type Validation = ({ active: true } & MeDto) | { active: false };

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
    private readonly localRevocation: LocalRevocation,
    private readonly relay: ControlPlaneRelay,
    private readonly limits: ClientRateLimits,
  ) {}

  @Post('exchange')
  @AppClientOperation({
    id: 'exchangeLoginCode',
    tag: 'App login family',
    summary: 'Swap the login code for tokens',
    description:
      'Server-to-server, once per code (the specification leaves path and body "not shown"; decided: JSON `{code, codeVerifier, clientId, clientSecret?}` -> `{accessToken, refreshToken, tokenType, expiresIn, scope}`). As at the token endpoint: the app names itself (`clientId`), an app that holds a secret authenticates with it (`clientSecret`, or HTTP Basic), otherwise **401** `invalid_client`; `codeVerifier` is the PKCE verifier of the login start’s `code_challenge`. A code that is unknown, used, older than 60 s, another app’s, or whose verifier does not match: **400** `invalid_grant`. The token endpoint’s rate limits apply, one count with it.',
  })
  @JsonBody(CodeExchangeRequestDto)
  @Answers(200, AppTokensDto, 'The user’s tokens.', { headers: NO_STORE })
  @GrantRefused('The code is refused (RFC 6749 JSON), or the body is not a JSON object (problem details).')
  @RateLimited()
  @ServerFailures()
  async exchange(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const body = jsonObject(request);
    await this.limited(request, reply, body, (client, authorization) =>
      this.appLogin.exchange(
        { ...client, code: optionalString(body.code), code_verifier: optionalString(body.codeVerifier) },
        authorization,
      ),
    );
  }

  @Post('refresh')
  @AppClientOperation({
    id: 'refreshAppTokens',
    tag: 'App login family',
    summary: 'Refresh the user’s tokens',
    description:
      'Body and answer are "not shown" in the specification; decided: JSON `{refreshToken, clientId, clientSecret?}` -> the same shape as the code exchange. The app authenticates as at the code exchange (**401** `invalid_client`), and the rules of the `refresh_token` grant apply: the token must be the app’s, the presented token is revoked at once, and presenting a rotated one revokes the whole grant (**400** `invalid_grant`). Clients refresh with a single request at a time, when a call answers 401 or at 80% of `expiresIn`. The token endpoint’s rate limits apply, one count with it.',
  })
  @JsonBody(AppRefreshRequestDto)
  @Answers(200, AppTokensDto, 'New tokens.', { headers: NO_STORE })
  @GrantRefused(
    'The refresh token is refused (RFC 6749 JSON), or the body is not a JSON object (problem details).',
  )
  @RateLimited()
  @ServerFailures()
  async refresh(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const body = jsonObject(request);
    await this.limited(request, reply, body, (client, authorization) =>
      this.appLogin.refresh({ ...client, refresh_token: optionalString(body.refreshToken) }, authorization),
    );
  }

  @Get('validate')
  @PublicOperation({
    id: 'validateTokenByQuery',
    tag: 'App login family',
    summary: 'Validate a token (query)',
    description: `${VALIDATE_DESCRIPTION} Prefer the POST form: a token in a URL can end up in logs.`,
  })
  @ApiQuery({ name: 'token', required: true, type: 'string' })
  @ApiQuery({
    name: 'audience',
    required: false,
    type: 'string',
    description: VALIDATION_AUDIENCE_DESCRIPTION,
  })
  @Judgement()
  @Refuses(400, 'No `token`, or an `audience` that is not one string.')
  @ServerFailures()
  @Header('Cache-Control', 'no-store')
  validateQuery(@Query('token') token: unknown, @Query('audience') audience: unknown): Promise<Validation> {
    return this.validate(requiredToken(token), optionalAudience(audience));
  }

  @Post('validate')
  @PublicOperation({
    id: 'validateToken',
    tag: 'App login family',
    summary: 'Validate a token',
    description: `${VALIDATE_DESCRIPTION} Request body (also "not shown"): JSON \`{token, audience?}\`.`,
  })
  @JsonBody(ValidateRequestDto)
  @Judgement()
  @Refuses(400, 'No `token`, an `audience` that is not a string, or a body that is not a JSON object.')
  @ServerFailures()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  validateBody(@Req() request: PlatformRequest): Promise<Validation> {
    const body = jsonObject(request);
    return this.validate(requiredToken(body.token), optionalAudience(body.audience));
  }

  @Post('revoke')
  @DeclaresAuthority(PRESENTED_TOKEN)
  @BearerOperation({
    id: 'revokeOwnToken',
    tag: 'App login family',
    summary: 'Revoke the Bearer token itself',
    description:
      'Revokes the access token sent as the Bearer token (logout of the user-forwarding model). **200** `{}` also when the token is already expired, revoked or unknown, as RFC 7009 does; only a request without any Bearer token is **401**.',
  })
  @Answers(200, EmptyObjectDto, 'Revoked, or nothing to revoke.')
  @HttpCode(200)
  async revoke(@Req() request: PlatformRequest): Promise<object> {
    const token = readBearerToken(request.headers.authorization);
    await this.sidecar.revokeToken(token);
    await this.localRevocation.applyNow(token);
    return {};
  }

  @Post('token')
  @OAuthOperation(
    {
      id: 'issueServiceToken',
      tag: 'App login family',
      summary: 'client_credentials token (login family path)',
      description:
        'The service model’s `client_credentials` grant under the `/api/v1` family: form body `grant_type`, `client_id`, `client_secret` (or Basic), optional `scope`; the same answers and errors as `POST /v1/oauth/token` (any other `grant_type` is `unsupported_grant_type`; a body over 64 KiB is problem details 413 here).',
    },
    ClientCredentialsTokenRequestDto,
  )
  @Answers(200, TokenResponseDto, 'The token response.', { headers: NO_STORE })
  @OAuthRefusal(400, 'A refused request, by RFC 6749 error code.', TOKEN_REFUSALS)
  @RateLimited()
  @Refuses(413, 'The body exceeds 64 KiB; refused before any route runs.')
  async token(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
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
    // The same client secrets as /v1/oauth/token: the same limits and failure counts.
    if (!(await this.limits.admit(request, reply))) return;
    return this.relay.forwardTokenRequest(request, reply, (response) => {
      noStore(response);
      return this.limits.settle(request, response.status);
    });
  }

  /**
   * An exchange or refresh under the token endpoint's limits (ClientRateLimits): the same counts
   * per client and address, and failed authentications counted against the same keys.
   */
  private async limited(
    request: PlatformRequest,
    reply: FastifyReply,
    body: Record<string, unknown>,
    call: (client: AppClientDto, authorization: string | undefined) => Promise<UpstreamResponse>,
  ): Promise<void> {
    const client = {
      client_id: optionalString(body.clientId),
      client_secret: optionalString(body.clientSecret),
    };
    const authorization = request.headers.authorization;
    const presented = presentedClientId(client.client_id, authorization);
    if (!(await this.limits.admit(request, reply, presented))) return;
    const response = await call(client, authorization);
    await this.limits.settle(request, response.status, presented);
    await sendAppTokens(reply, response);
  }

  /**
   * Active with the claims, or `{active: false}` for any token the sidecar refuses (one for
   * another audience included). Asked of the sidecar each time: the backend's own cache and
   * verifier hold tokens for the issuer alone.
   */
  private async validate(token: string, audience: string): Promise<Validation> {
    try {
      return { active: true, ...meFromClaims(await this.sidecar.validateToken(token, audience)) };
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
  const body: AppTokensDto = {
    accessToken: String(token.access_token),
    refreshToken: String(token.refresh_token),
    tokenType: 'Bearer',
    expiresIn: Number(token.expires_in),
    scope: String(token.scope ?? ''),
  };
  void reply.status(200).headers(OAUTH_NO_STORE);
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

/** The client the request names for the rate limits: Basic first, as the control plane reads it. */
function presentedClientId(clientId: string | undefined, authorization: string | undefined): string | null {
  try {
    return basicCredentials(authorization)?.clientId ?? clientId ?? null;
  } catch {
    return clientId ?? null; // malformed Basic: the control plane refuses it
  }
}

const optionalString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** '' (the issuer) when absent; anything but one string is refused. */
function optionalAudience(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') throw validationFailed('audience must be a string');
  return value;
}

function requiredToken(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw validationFailed('token is required');
  return value;
}
