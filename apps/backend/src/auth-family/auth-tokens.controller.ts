import { Controller, Get, Header, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { validationFailed } from '@platform/domain';
import { readBearerToken } from '@platform/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, FormBody, JsonBody } from '../http/caller';
import { relay } from '../http/relay';
import { AuthFamilyService, type FamilyAnswer, type Validation } from './auth-family.service';

/** A JSON object body; anything else is 400 problem+json. */
function jsonObject(body: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body);
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

async function answer(reply: FastifyReply, result: FamilyAnswer): Promise<void> {
  if (result.kind === 'relay') return relay(reply, result.response);
  void reply.status(result.status).headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
  await reply.send(result.body);
}

/**
 * The app-facing token operations of the user-forwarding model (docs/internal-api.md). The app
 * calls them server-to-server; no token ever travels in a URL the browser sees.
 */
@Controller('api/v1/auth')
export class AuthTokensController {
  constructor(private readonly family: AuthFamilyService) {}

  /** JSON `{code}`: the one-time login code for `{accessToken, refreshToken, ...}`. */
  @Post('exchange')
  async exchange(
    @JsonBody() body: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const code = optionalString(jsonObject(body).code);
    await answer(reply, await this.family.exchange(code, caller));
  }

  /** JSON `{refreshToken}`: rotation rules of the refresh_token grant. */
  @Post('refresh')
  async refresh(
    @JsonBody() body: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const refreshToken = optionalString(jsonObject(body).refreshToken);
    await answer(reply, await this.family.refresh(refreshToken, caller));
  }

  @Get('validate')
  @Header('Cache-Control', 'no-store')
  validateQuery(@Query('token') token: unknown, @CurrentCaller() caller: Caller): Promise<Validation> {
    return this.family.validate(requiredToken(token), caller);
  }

  /** JSON `{token}`: keeps the token out of URLs and their logs. */
  @Post('validate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  validateBody(@JsonBody() body: string, @CurrentCaller() caller: Caller): Promise<Validation> {
    return this.family.validate(requiredToken(jsonObject(body).token), caller);
  }

  /** Revokes the Bearer token itself; 200 also for expired or unknown tokens. */
  @Post('revoke')
  @HttpCode(200)
  async revoke(@Req() request: FastifyRequest, @CurrentCaller() caller: Caller): Promise<object> {
    await this.family.revoke(readBearerToken(request.headers.authorization), caller);
    return {};
  }

  /** client_credentials (form body), answered as `/v1/oauth/token` does; other grants refused. */
  @Post('token')
  async token(
    @FormBody() form: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.family.token(form, caller));
  }
}

function requiredToken(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw validationFailed('token is required');
  return value;
}
