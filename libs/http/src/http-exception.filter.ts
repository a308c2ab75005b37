import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  type LoggerService,
} from '@nestjs/common';
import {
  BearerError,
  DpopChallengeError,
  DPOP_ALGORITHMS,
  type BearerErrorCode,
  DomainError,
  QuotaExhaustedError,
  type DomainErrorCode,
  OAuthError,
  type OAuthErrorCode,
  SCIM_SCHEMAS,
  ScimError,
} from '@platform/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MissingBearerTokenError } from './bearer';
import { PROBLEM_CONTENT_TYPE, problem, statusTitle } from './problem';
import { headerValue, isOAuthRoute, isScimRoute, requestPath } from './request';

/** What the filter sends for one exception; computed without touching the reply (unit-testable). */
export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: object;
  /** Set for server-side failures only: a line safe to log (no stack, SQL, token or secret). */
  logLine?: string;
}

export type RequestLike = Pick<FastifyRequest, 'url' | 'headers'>;

const OAUTH_JSON = 'application/json';
/** What every OAuth answer carries (RFC 6749 section 5.1). */
export const OAUTH_NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/**
 * The one HTTP mapper of the platform's typed errors:
 * - OAuthError: RFC 6749 section 5.2 JSON;
 * - BearerError: RFC 6750 challenge plus problem+json with an `error` member;
 * - DomainError: RFC 9457 problem+json;
 * - HttpException / fastify errors (404 route, 413 body, 400 JSON, 415): problem+json;
 * - anything else: 500 problem+json without detail, logged by name only.
 * On the OAuth routes (token, introspect, revoke and their internal twins) every answer is
 * RFC 6749 JSON (4xx: invalid_request, 503: temporarily_unavailable, other 5xx: server_error)
 * except DomainErrors below 500, and carries `Cache-Control: no-store`.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: LoggerService) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const response = toErrorResponse(exception, request);
    // The id is named here too: an error raised before the correlation hook ran has no context.
    logErrorResponse(
      this.logger,
      `[${request.id}] ${request.method} ${requestPath(request)}`,
      exception,
      response,
    );
    if (reply.sent) return;
    void reply.status(response.status).headers(response.headers).send(JSON.stringify(response.body));
  }
}

/** What the platform logs of an answered exception: a server failure's safe line, an OAuth refusal's detail. */
export function logErrorResponse(
  logger: LoggerService,
  where: string,
  exception: unknown,
  response: ErrorResponse,
): void {
  if (response.logLine !== undefined) logger.error(`${where}: ${response.logLine}`, 'HttpExceptionFilter');
  if (exception instanceof OAuthError && exception.detail !== undefined) {
    logger.log(`${where}: ${exception.code}: ${exception.detail}`, 'HttpExceptionFilter');
  }
}

export function toErrorResponse(exception: unknown, request: RequestLike): ErrorResponse {
  const path = requestPath(request);
  if (isScimRoute(path)) return scimErrorResponse(exception, request);
  const oauthRoute = isOAuthRoute(path);
  const response = mapException(exception, request, oauthRoute);
  if (oauthRoute) Object.assign(response.headers, OAUTH_NO_STORE);
  return response;
}

export const SCIM_CONTENT_TYPE = 'application/scim+json';

/**
 * On the SCIM routes every error is the SCIM error schema (RFC 7644 section 3.12): a ScimError
 * with its `scimType`, anything else with the status and headers (a Bearer challenge) the usual
 * mapping gives it and its detail, never more.
 */
function scimErrorResponse(exception: unknown, request: RequestLike): ErrorResponse {
  if (exception instanceof ScimError) {
    return scimError(exception.status, exception.message, exception.scimType);
  }
  const mapped = mapException(exception, request, false);
  const detail = (mapped.body as { detail?: unknown }).detail;
  const response = scimError(mapped.status, typeof detail === 'string' ? detail : statusTitle(mapped.status));
  const challenge = mapped.headers['www-authenticate'];
  if (challenge !== undefined) response.headers['www-authenticate'] = challenge;
  return { ...response, ...(mapped.logLine !== undefined && { logLine: mapped.logLine }) };
}

function scimError(status: number, detail: string, scimType?: string): ErrorResponse {
  return {
    status,
    headers: { 'content-type': SCIM_CONTENT_TYPE },
    body: { schemas: [SCIM_SCHEMAS.error], status: String(status), ...(scimType && { scimType }), detail },
  };
}

function mapException(exception: unknown, request: RequestLike, oauthRoute: boolean): ErrorResponse {
  if (exception instanceof OAuthError) {
    const response = oauthError(exception.code, exception.description, request);
    // RFC 9449 section 8: the nonce a client must put in its next proof.
    if (exception.dpopNonce !== undefined) response.headers['dpop-nonce'] = exception.dpopNonce;
    return response;
  }
  if (exception instanceof BearerError) return bearerError(exception);
  if (exception instanceof DpopChallengeError) return dpopChallenge(exception);
  if (exception instanceof QuotaExhaustedError) return quotaExhausted(exception, oauthRoute);
  if (exception instanceof DomainError) {
    if (oauthRoute && exception.code === 'unavailable') {
      return oauthError('temporarily_unavailable', exception.message, request);
    }
    return domainError(exception.code, exception.message);
  }
  const fromHttp = httpStatusOf(exception);
  if (fromHttp !== undefined && fromHttp.status < 500) {
    if (oauthRoute) return oauthError('invalid_request', fromHttp.detail, request);
    return problemResponse(fromHttp.status, fromHttp.detail);
  }
  const error = describe(exception);
  const logLine = fromHttp !== undefined ? `${fromHttp.status} ${error}` : error;
  if (oauthRoute) {
    const status = fromHttp?.status === 503 ? 503 : 500;
    const code: OAuthErrorCode = status === 503 ? 'temporarily_unavailable' : 'server_error';
    return {
      ...oauthError(
        code,
        status === 503 ? 'The service is temporarily unavailable' : 'Internal error',
        request,
      ),
      logLine,
    };
  }
  const status = fromHttp?.status ?? 500;
  return { ...problemResponse(status), logLine };
}

export function oauthStatus(code: OAuthErrorCode): number {
  switch (code) {
    case 'invalid_client':
      return 401;
    case 'server_error':
      return 500;
    case 'temporarily_unavailable':
      return 503;
    case 'invalid_request':
    case 'invalid_grant':
    case 'unauthorized_client':
    case 'unsupported_grant_type':
    case 'invalid_scope':
    case 'access_denied':
    case 'unsupported_response_type':
    case 'unsupported_token_type':
    case 'invalid_target':
    case 'login_required':
    case 'consent_required':
    case 'request_not_supported':
    case 'request_uri_not_supported':
    case 'registration_not_supported':
    case 'authorization_pending':
    case 'slow_down':
    case 'expired_token':
    case 'invalid_dpop_proof':
    case 'use_dpop_nonce':
      return 400;
    default:
      return assertNever(code);
  }
}

function oauthError(code: OAuthErrorCode, description: string, request: RequestLike): ErrorResponse {
  const status = oauthStatus(code);
  const headers: Record<string, string> = { 'content-type': OAUTH_JSON, ...OAUTH_NO_STORE };
  if (code === 'invalid_client' && triedBasic(request)) headers['www-authenticate'] = 'Basic realm="oauth"';
  return { status, headers, body: { error: code, error_description: description } };
}

function triedBasic(request: RequestLike): boolean {
  const authorization = headerValue(request.headers.authorization);
  return authorization !== undefined && /^basic(\s|$)/i.test(authorization.trim());
}

export function bearerStatus(code: BearerErrorCode): number {
  switch (code) {
    case 'invalid_token':
      return 401;
    case 'invalid_request':
      return 400;
    case 'insufficient_scope':
      return 403;
    default:
      return assertNever(code);
  }
}

function bearerError(error: BearerError): ErrorResponse {
  if (error instanceof MissingBearerTokenError) {
    return {
      status: 401,
      headers: { 'content-type': PROBLEM_CONTENT_TYPE, 'www-authenticate': 'Bearer realm="oauth"' },
      body: problem(401, statusTitle(401), error.description),
    };
  }
  const status = bearerStatus(error.code);
  const attributes = [
    `realm="oauth"`,
    `error="${error.code}"`,
    `error_description="${quotable(error.description)}"`,
  ];
  if (error.code === 'insufficient_scope' && error.requiredScope)
    attributes.push(`scope="${quotable(error.requiredScope)}"`);
  return {
    status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, 'www-authenticate': `Bearer ${attributes.join(', ')}` },
    body: { ...problem(status, statusTitle(status), error.description), error: error.code },
  };
}

/**
 * RFC 9449 section 7.1: the `DPoP` challenge with its error and the proof algorithms accepted;
 * `use_dpop_nonce` also hands out the nonce (`DPoP-Nonce`, section 9).
 */
function dpopChallenge(error: DpopChallengeError): ErrorResponse {
  const status = error.code === 'invalid_request' ? 400 : 401;
  const challenge = [
    `error="${error.code}"`,
    `error_description="${quotable(error.description)}"`,
    `algs="${DPOP_ALGORITHMS.join(' ')}"`,
  ].join(', ');
  return {
    status,
    headers: {
      'content-type': PROBLEM_CONTENT_TYPE,
      'www-authenticate': `DPoP ${challenge}`,
      ...(error.nonce !== undefined && { 'dpop-nonce': error.nonce }),
    },
    body: { ...problem(status, statusTitle(status), error.description), error: error.code },
  };
}

/** RFC 6750 restricts error_description to %x20-21 / %x23-5B / %x5D-7E. */
function quotable(text: string): string {
  return text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, ' ');
}

export function domainStatus(code: DomainErrorCode): number {
  switch (code) {
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'validation_failed':
      return 400;
    case 'unauthenticated':
      return 401;
    case 'forbidden':
      return 403;
    case 'unavailable':
      return 503;
    case 'too_many_requests':
      return 429;
    default:
      return assertNever(code);
  }
}

/**
 * A hard quota used up (docs/plans.md): 429 with Retry-After until the window ends; at an OAuth
 * endpoint RFC 6749's `temporarily_unavailable`, as the backend's own rate limits answer.
 */
function quotaExhausted(error: QuotaExhaustedError, oauthRoute: boolean): ErrorResponse {
  const retryAfter = { 'retry-after': String(error.retryAfterSeconds) };
  if (!oauthRoute) {
    const response = problemResponse(429, error.message);
    return { ...response, headers: { ...response.headers, ...retryAfter } };
  }
  return {
    status: 429,
    headers: { 'content-type': OAUTH_JSON, ...OAUTH_NO_STORE, ...retryAfter },
    body: { error: 'temporarily_unavailable', error_description: error.message },
  };
}

function domainError(code: DomainErrorCode, message: string): ErrorResponse {
  const status = domainStatus(code);
  return problemResponse(status, message);
}

function problemResponse(status: number, detail?: string): ErrorResponse {
  return {
    status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE },
    body: problem(status, statusTitle(status), detail),
  };
}

/** Status and a client-safe detail of a Nest HttpException or a fastify error (`FST_*`). */
function httpStatusOf(exception: unknown): { status: number; detail: string } | undefined {
  if (exception instanceof HttpException) {
    return { status: exception.getStatus(), detail: httpExceptionDetail(exception) };
  }
  if (exception instanceof Error && isFastifyError(exception)) {
    return { status: exception.statusCode, detail: exception.message };
  }
  return undefined;
}

function httpExceptionDetail(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.filter((m) => typeof m === 'string').join('; ');
  return exception.message;
}

function isFastifyError(error: Error): error is Error & { statusCode: number } {
  const { statusCode, code } = error as Error & { statusCode?: unknown; code?: unknown };
  return (
    typeof statusCode === 'number' &&
    statusCode >= 400 &&
    statusCode <= 599 &&
    (error.name === 'FastifyError' || (typeof code === 'string' && code.startsWith('FST_')))
  );
}

const DATABASE_ERROR_NAME = /query|sql|typeorm|database|postgres|driver|entity|connection/i;

/** Database errors carry SQL and parameters in their messages: those are logged by name only. */
function isDatabaseError(error: Error): boolean {
  return (
    DATABASE_ERROR_NAME.test(error.name) ||
    DATABASE_ERROR_NAME.test(error.constructor?.name ?? '') ||
    'query' in error ||
    'sql' in error ||
    'driverError' in error ||
    /^(SQLITE_|23|42|08)/.test(String((error as { code?: unknown }).code ?? ''))
  );
}

const JWT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
const CREDENTIAL = /\b(bearer|basic)\s+[A-Za-z0-9\-._~+/]+=*/gi;

/** `name` (and the message, unless it is a database error), with anything token-shaped blanked. */
function describe(exception: unknown): string {
  if (!(exception instanceof Error)) return `non-error thrown (${typeof exception})`;
  const name = exception.name || 'Error';
  if (isDatabaseError(exception)) return name;
  const message = exception.message
    .replace(JWT, '[token]')
    .replace(CREDENTIAL, '$1 [credential]')
    .split('\n')[0];
  return message ? `${name}: ${message}` : name;
}

function assertNever(value: never): never {
  throw new Error(`unmapped error code ${String(value)}`);
}
