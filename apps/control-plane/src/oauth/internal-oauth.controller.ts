import { Controller, Header, Headers, Inject, Logger, Req, Res } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
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
import { PLATFORM_CONFIG } from '../platform/tokens';

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
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
  ) {
    this.issuer = config.issuer;
    this.tokenUrl = `${config.issuer}/v1/oauth/token`;
  }

  private readonly issuer: string;
  /** The public token endpoint: a DPoP proof's `htu` when the backend names no path. */
  private readonly tokenUrl: string;

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
    dpop,
    dpop_path,
  }: TokenBatchRequestDto): Promise<TokenBatchAnswerDto> {
    try {
      const params = parseOAuthForm(form);
      const url = dpop_path === undefined ? this.tokenUrl : `${this.issuer}${dpop_path}`;
      const proof = { ...(dpop !== undefined && { proof: dpop }), url };
      const issued = await this.tokenEndpoint.handle(params, authorization, proof);
      metrics.tokensIssued.labels(params.grant_type ?? '').inc();
      const nonce = this.tokenEndpoint.dpopNonce();
      const headers = nonce === undefined ? TOKEN_HEADERS : { ...TOKEN_HEADERS, 'dpop-nonce': nonce };
      return { status: 200, headers, body: issued };
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
