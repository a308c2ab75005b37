import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { type DynamicModule, type LoggerService, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

import {
  acceptCorrelationId,
  CORRELATION_HEADER,
  CorrelatedLogger,
  endServerSpan,
  inServerSpan,
  type ServerSpan,
  startServerSpan,
  observeHttpRequest,
  withCorrelationId,
} from '@platform/telemetry';
import { connectionSweep } from './connection-sweep';
import { HttpExceptionFilter, toErrorResponse, type RequestLike } from './http-exception.filter';
import { registerLiveRoutes } from './live-feed';
import { DEFAULT_LIVE_STREAM_LIMITS, type LiveStreamLimits } from './live-streams';
import { headerValue } from './request';
import { StorableTextGuard } from './text-rule';

/** A request with the span it is served in, when tracing is on. */
type TracedRequest = { span?: ServerSpan };

export const DEFAULT_BODY_LIMIT = 64 * 1024;

export interface HttpAppOptions {
  logger: LoggerService;
  /** Largest accepted request body in bytes; larger: 413 (invalid_request on OAuth routes). */
  bodyLimit?: number;
  /** What live streams may hold (`LIVE_STREAM_*`); each limit left out takes its default. */
  liveStreams?: Partial<LiveStreamLimits>;
  /**
   * The proxies (addresses and CIDRs, `TRUST_PROXY`) whose X-Forwarded-For `request.ip` believes.
   * None by default: `request.ip` is the connection's peer, whatever the client writes.
   */
  trustProxy?: string[];
}

/** Nest's console logger with the correlation id on every line; one JSON object per line in production. */
export function createLogger(format: 'json' | 'text', service: string): CorrelatedLogger {
  return new CorrelatedLogger(format, service);
}

/** The caller's `x-request-id` when it is a plain token, else a fresh UUID. */
export function requestIdFor(request: Pick<IncomingMessage, 'headers'>): string {
  return acceptCorrelationId(headerValue(request.headers[CORRELATION_HEADER]));
}

/**
 * A Nest application on Fastify with the platform's HTTP conventions: body limit, request ids
 * echoed in `x-request-id` and set as the correlation id of everything the handler does, proxy
 * trust only as configured, form bodies parsed but kept raw, unknown media types
 * left to the controllers, and the global exception filter. The caller listens.
 */
export async function createHttpApp(
  module: Type<unknown> | DynamicModule,
  options: HttpAppOptions,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    trustProxy: options.trustProxy?.length ? options.trustProxy : false,
    logger: false,
    requestIdHeader: false,
    genReqId: requestIdFor,
    // Longer than any id of ours (tenant names reach 128): the router refuses beyond.
    routerOptions: { maxParamLength: 256 },
    // The router's own refusals (a malformed URL, a parameter over that length) come before
    // Nest's filters: the same mapping answers them, as problem+json or RFC 6749 JSON.
    // `as never`: Nest's adapter types this option with its own copy of Fastify's generic types.
    frameworkErrors: answerRouterError as never,
    // A request that reaches a closing server on a kept-alive connection is served, with
    // `Connection: close`, rather than refused with 503: the drain has already turned traffic away.
    return503OnClosing: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: options.logger,
    bodyParser: false,
    abortOnError: false,
  });
  registerContentParsers(adapter);
  await registerLiveRoutes(adapter, { ...DEFAULT_LIVE_STREAM_LIMITS, ...options.liveStreams });
  const fastify = adapter.getInstance();
  // A route that takes more than the default says so with `@RouteConfig({ bodyLimit })`.
  fastify.addHook('onRoute', (route) => {
    const bodyLimit = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
    if (typeof bodyLimit === 'number') route.bodyLimit = bodyLimit;
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(CORRELATION_HEADER, request.id);
    (request as TracedRequest).span = startServerSpan(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      request.headers,
    );
    done();
  });
  // The route pattern, never the URL: label values stay bounded.
  fastify.addHook('onResponse', (request, reply, done) => {
    observeHttpRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    endServerSpan((request as TracedRequest).span, reply.statusCode);
    done();
  });
  // Callback style on purpose: `done` runs the handler (guards, pipes, controller, filters)
  // synchronously, so all of it and every call it makes inherit the correlation id and the span.
  fastify.addHook('preHandler', (request, _reply, done) =>
    withCorrelationId(request.id, () => inServerSpan((request as TracedRequest).span, done)),
  );
  // Closing the server waits for its connections: those carrying no request are ended, now and
  // as each finishes its answer (a kept-alive one would stay for Fastify's keepAliveTimeout, 72 s).
  const sweepConnections = connectionSweep(fastify.server);
  fastify.addHook('preClose', (done) => {
    sweepConnections();
    done();
  });
  app.useGlobalFilters(new HttpExceptionFilter(options.logger));
  // Before every other guard: text no database may hold is bad input on SQLite and Postgres alike.
  app.useGlobalGuards(new StorableTextGuard());
  return app;
}

/**
 * The router's own refusals (a malformed URL, a parameter over the length) come before Nest's
 * filters: the same mapping answers them, as problem+json or RFC 6749 JSON.
 */
function answerRouterError(error: Error, request: RequestLike, reply: RawReply): void {
  const response = toErrorResponse(error, request);
  void reply.status(response.status).headers(response.headers).send(JSON.stringify(response.body));
}

/** What `answerRouterError` uses of a reply (Nest's adapter bundles its own Fastify types). */
interface RawReply {
  status(code: number): { headers(values: Record<string, string>): { send(payload: string): unknown } };
}

function registerContentParsers(adapter: FastifyAdapter): void {
  const fastify = adapter.getInstance();
  fastify.removeAllContentTypeParsers();
  const json = fastify.getDefaultJsonParser('error', 'error');
  // SCIM clients send their JSON as application/scim+json (RFC 7644 section 3.1).
  fastify.addContentTypeParser(
    ['application/json', 'application/scim+json'],
    { parseAs: 'string' },
    (request, body: string, done) => {
      (request as { rawBody?: string }).rawBody = body;
      // An empty JSON body (a bodiless POST that still names the type) is no body, not an error.
      if (body.trim() === '') return done(null, undefined);
      json(request, body, done);
    },
  );
  // Forms stay text too: each form route parses it once, by the OAuth rules (parseOAuthForm).
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (request, body: string, done) => {
    (request as { rawBody?: string }).rawBody = body;
    done(null, body);
  });
}
