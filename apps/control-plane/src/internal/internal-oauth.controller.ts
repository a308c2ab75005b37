import { Controller, Header, Headers, HttpCode, Logger, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { OAuthError, parseOAuthForm, TokenEndpoint, TokenIntrospector, TokenRevoker } from '@platform/domain';
import {
  endServerSpan,
  inServerSpan,
  metrics,
  startServerSpan,
  withCorrelationId,
} from '@platform/telemetry';
import {
  compileBodyValidator,
  logErrorResponse,
  mediaType,
  OAUTH_NO_STORE,
  toErrorResponse,
  type PlatformRequest,
} from '@platform/http';
import {
  INTROSPECTION_REACH_HEADER,
  TOKEN_BATCH_BODY_LIMIT,
  TOKEN_BATCH_PATH,
  TokenBatchDto,
  type TokenBatchAnswer,
  type TokenBatchAnswers,
  type TokenBatchRequestDto,
} from '@platform/internal';
import type { FastifyReply } from 'fastify';
import { RevocationFeed } from '../platform/revocation-feed';
import { InternalRoute } from '../platform/route-authority';

/** The form body of an OAuth request, as the backend forwarded it verbatim. */
function oauthForm(request: PlatformRequest): Record<string, string> {
  if (mediaType(request) !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  }
  return parseOAuthForm(request.rawBody ?? '');
}

const TOKEN_HEADERS = { 'content-type': 'application/json; charset=utf-8', ...OAUTH_NO_STORE };
/** Every token passes here: its DTO compiled once, not the global pipe (compileBodyValidator). */
const tokenBatchOf = compileBodyValidator(TokenBatchDto);

@Controller('internal/v1/oauth')
@InternalRoute()
export class InternalOAuthController {
  private readonly logger = new Logger();

  constructor(
    private readonly tokenEndpoint: TokenEndpoint,
    private readonly introspector: TokenIntrospector,
    private readonly revoker: TokenRevoker,
    private readonly feed: RevocationFeed,
  ) {}

  /**
   * The token requests a backend received in one turn of its event loop. Each is handled as if
   * it had come alone (its own correlation id, span, metrics, audit record and answer); their
   * token events share a group commit, and the HTTP and framework work is paid once.
   */
  @Post('token-batch')
  @HttpCode(200)
  @RouteConfig({ bodyLimit: TOKEN_BATCH_BODY_LIMIT })
  async tokenBatch(@Req() request: PlatformRequest): Promise<TokenBatchAnswers> {
    const batch = tokenBatchOf(request.body);
    return { answers: await Promise.all(batch.requests.map((request) => this.answer(request))) };
  }

  private answer(request: TokenBatchRequestDto): Promise<TokenBatchAnswer> {
    const { traceparent, tracestate } = request;
    const span = startServerSpan('POST', TOKEN_BATCH_PATH, { traceparent, tracestate });
    return withCorrelationId(request.request_id, () =>
      inServerSpan(span, async () => {
        const answer = await this.issue(request);
        endServerSpan(span, answer.status);
        return answer;
      }),
    );
  }

  private async issue({ form, authorization, request_id }: TokenBatchRequestDto): Promise<TokenBatchAnswer> {
    try {
      const params = parseOAuthForm(form);
      const issued = await this.tokenEndpoint.handle(params, authorization);
      metrics.tokensIssued.labels(params.grant_type ?? '').inc();
      return { status: 200, headers: TOKEN_HEADERS, body: issued };
    } catch (error) {
      if (error instanceof OAuthError) metrics.tokenRequestsRefused.labels(error.code).inc();
      // A replayed code or refresh token revokes its grant and answers invalid_grant: the
      // sidecars hear of it now rather than at the feed's next poll.
      if (error instanceof OAuthError && error.code === 'invalid_grant') this.feed.wake();
      const refused = toErrorResponse(error, { url: TOKEN_BATCH_PATH, headers: { authorization } });
      logErrorResponse(this.logger, `[${request_id}] token request`, error, refused);
      return { status: refused.status, headers: refused.headers, body: refused.body };
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
