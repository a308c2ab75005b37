import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';

let sdk: NodeSDK | undefined;
const tracer = () => trace.getTracer('@platform/telemetry');

/**
 * Whether the standard variables ask for traces. Off unless an exporter or an OTLP endpoint is
 * named (the SDK alone would default to OTLP on localhost); `OTEL_SDK_DISABLED=true` wins.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter !== undefined && exporter !== '') return exporter !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts OpenTelemetry tracing for this process when the `OTEL_*` variables ask for it, with
 * exporters, sampler, batching and W3C `traceparent` propagation as those variables say. gRPC
 * calls (both sides) and Postgres queries are traced by their instrumentations, which must be in
 * place before `@grpc/grpc-js` and `pg` are first loaded: each process's `tracing.ts` calls this
 * and is imported first by its `main.ts`. HTTP spans come from the platform's own hooks
 * (`startServerSpan`, `startClientSpan`): the generic HTTP and undici instrumentations cost a
 * quarter of the issuance throughput (docs/operations.md). Does nothing when tracing is off.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): void {
  if (sdk !== undefined || !tracingRequested(env)) return;
  // Loaded only when traces are asked for: the SDK and its exporters are some 430 modules, a
  // third of a second of every start of every process that would not use them.
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { GrpcInstrumentation } =
    require('@opentelemetry/instrumentation-grpc') as typeof import('@opentelemetry/instrumentation-grpc');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    // Metrics are Prometheus's (prom-client), logs go to stdout: the SDK exports traces only.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // Health checks and watches: probes and streams as long as the process, not requests.
      new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
}

/** Exports the spans still buffered; called once at shutdown so the last requests are not lost. */
export async function flushTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}

/** Flushes the buffered spans when Nest shuts the process down (SIGTERM, `app.close()`). */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return flushTracing();
  }
}

/** Trace and span ids of the span in context (W3C hex), for log lines; undefined when untraced. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const span = trace.getSpan(context.active());
  if (span === undefined) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** A request being served, traced: its span and the context its handler runs in. */
export interface ServerSpan {
  span: Span;
  context: Context;
}

/**
 * Opens the span of an incoming HTTP request, named after the route pattern (`GET /v1/apps/:id`,
 * never the URL), continuing the caller's trace when its `traceparent` names one. Undefined
 * when tracing is off.
 */
export function startServerSpan(
  method: string,
  route: string,
  headers: Record<string, string | string[] | undefined>,
): ServerSpan | undefined {
  if (sdk === undefined) return undefined;
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer().startSpan(
    `${method} ${route}`,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'http.route': route } },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Runs `work` (the request's handler) inside `served`'s context, so its calls are its children. */
export function inServerSpan<T>(served: ServerSpan | undefined, work: () => T): T {
  return served === undefined ? work() : context.with(served.context, work);
}

/** Closes the span of a request with the status it was answered with (5xx: an error). */
export function endServerSpan(served: ServerSpan | undefined, status: number): void {
  if (served === undefined) return;
  served.span.setAttribute('http.response.status_code', status);
  if (status >= 500) served.span.setStatus({ code: SpanStatusCode.ERROR });
  served.span.end();
}

/**
 * Opens the span of an outgoing HTTP request, a child of the span in context, and answers it
 * with the headers that carry it to the server (`traceparent`). Undefined when tracing is off.
 */
export function startClientSpan(
  method: string,
  path: string,
): { span: Span; headers: Record<string, string> } | undefined {
  if (sdk === undefined) return undefined;
  const span = tracer().startSpan(method, {
    kind: SpanKind.CLIENT,
    attributes: { 'http.request.method': method, 'url.path': path.split('?')[0] },
  });
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), headers);
  return { span, headers };
}

/** Closes the span of an outgoing request with the status answered, or the error it failed with. */
export function endClientSpan(span: Span, status: number | undefined, error?: unknown): void {
  if (status !== undefined) span.setAttribute('http.response.status_code', status);
  if (error !== undefined || (status ?? 0) >= 500) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : undefined });
  }
  span.end();
}

/**
 * The W3C trace context of the span in context (`traceparent`, `tracestate`), for work that
 * leaves by another way than a request of its own (a token request inside a batch); empty when
 * tracing is off or nothing is traced.
 */
export function traceContextHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  if (sdk !== undefined) propagation.inject(context.active(), headers);
  return headers;
}
