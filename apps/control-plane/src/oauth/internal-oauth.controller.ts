import { Controller, Header, Headers, Logger, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  INTERNAL_OAUTH_OPERATIONS,
  internalPathOf,
  type TokenBatchAnswerDto,
  type TokenBatchAnswersDto,
} from '@platform/contract';
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
  TokenBatchDto,
  type TokenBatchRequestDto,
} from '@platform/internal';
import type { FastifyReply } from 'fastify';
import { Implements } from '../platform/implements';
import { RevocationFeed } from '../platform/revocation-feed';

/** The form body of an OAuth request, as the backend forwarded it verbatim. */
function oauthForm(request: PlatformRequest): Record<string, string> {
  if (mediaType(request) !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  }
  return parseOAuthForm(request.rawBody ?? '');
}

const TOKEN_BATCH_PATH = `/${internalPathOf(INTERNAL_OAUTH_OPERATIONS.tokenBatch)}`;
const TOKEN_HEADERS = { 'content-type': 'application/json; charset=utf-8', ...OAUTH_NO_STORE };
/** Every token passes here: its DTO compiled once, not the global pipe (compileBodyValidator). */
const tokenBatchOf = compileBodyValidator(TokenBatchDto);

@Controller()
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
  @Implements(INTERNAL_OAUTH_OPERATIONS.tokenBatch)
  @RouteConfig({ bodyLimit: TOKEN_BATCH_BODY_LIMIT })
  async tokenBatch(@Req() request: PlatformRequest): Promise<TokenBatchAnswersDto> {
    const batch = tokenBatchOf(request.body);
    return { answers: await Promise.all(batch.requests.map((request) => this.answer(request))) };
  }

  private answer(request: TokenBatchRequestDto): Promise<TokenBatchAnswerDto> {
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

  private async issue({
    form,
    authorization,
    request_id,
  }: TokenBatchRequestDto): Promise<TokenBatchAnswerDto> {
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

  @Implements(INTERNAL_OAUTH_OPERATIONS.introspect)
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

  @Implements(INTERNAL_OAUTH_OPERATIONS.revoke)
  async revoke(@Req() request: PlatformRequest, @Headers('authorization') authorization?: string) {
    await this.revoker.revoke(oauthForm(request), authorization);
    metrics.tokensRevoked.labels('rfc7009').inc();
    this.feed.wake();
    return {};
  }
}
