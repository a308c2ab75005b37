import { Controller, Header, Headers, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { OAuthError, parseOAuthForm, TokenEndpoint, TokenIntrospector, TokenRevoker } from '@platform/domain';
import { metrics } from '@platform/telemetry';
import { mediaType, type PlatformRequest } from '@platform/http';
import { INTROSPECTION_REACH_HEADER } from '@platform/internal';
import type { FastifyReply } from 'fastify';
import { RevocationFeed } from '../platform/revocation-feed';
import { InternalGuard } from './internal.guard';

/** The form body of an OAuth request, as the backend forwarded it verbatim. */
function oauthForm(request: PlatformRequest): Record<string, string> {
  if (mediaType(request) !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  }
  return parseOAuthForm(request.rawBody ?? '');
}

@Controller('internal/v1/oauth')
@UseGuards(InternalGuard)
export class InternalOAuthController {
  constructor(
    private readonly tokenEndpoint: TokenEndpoint,
    private readonly introspector: TokenIntrospector,
    private readonly revoker: TokenRevoker,
    private readonly feed: RevocationFeed,
  ) {}

  @Post('token')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  async token(@Req() request: PlatformRequest, @Headers('authorization') authorization?: string) {
    const form = oauthForm(request);
    try {
      const issued = await this.tokenEndpoint.handle(form, authorization);
      metrics.tokensIssued.labels(form.grant_type ?? '').inc();
      return issued;
    } catch (error) {
      if (error instanceof OAuthError) metrics.tokenRequestsRefused.labels(error.code).inc();
      // A replayed code or refresh token revokes its grant and answers invalid_grant: the
      // sidecars hear of it now rather than at the feed's next poll.
      if (error instanceof OAuthError && error.code === 'invalid_grant') this.feed.wake();
      throw error;
    }
  }

  @Post('introspect')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async introspect(
    @Req() request: PlatformRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('authorization') authorization?: string,
  ) {
    const { answer, seesAnyToken } = await this.introspector.introspectWithReach(
      oauthForm(request),
      authorization,
    );
    reply.header(INTROSPECTION_REACH_HEADER, seesAnyToken ? 'any' : 'own');
    return answer;
  }

  @Post('revoke')
  @HttpCode(200)
  async revoke(@Req() request: PlatformRequest, @Headers('authorization') authorization?: string) {
    await this.revoker.revoke(oauthForm(request), authorization);
    metrics.tokensRevoked.labels('rfc7009').inc();
    this.feed.wake();
    return {};
  }
}
