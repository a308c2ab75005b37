import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client): one registry per process, Node's own metrics
 * (`process_*`, `nodejs_*`) and the platform's, all prefixed `platform_`. Label values are
 * bounded: route patterns, RPC names, status codes and fixed reason codes, never an id.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** Seconds, from a millisecond to ten: token issuance to a slow database call. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

export const metrics = {
  httpRequests: new Histogram({
    name: 'platform_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [metricsRegistry],
  }),
  grpcCalls: new Histogram({
    name: 'platform_grpc_call_duration_seconds',
    help: 'gRPC calls served, by method and status code name.',
    labelNames: ['method', 'code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [metricsRegistry],
  }),
  tokensIssued: new Counter({
    name: 'platform_tokens_issued_total',
    help: 'Access tokens issued, by grant type.',
    labelNames: ['grant_type'] as const,
    registers: [metricsRegistry],
  }),
  tokensRevoked: new Counter({
    name: 'platform_tokens_revoked_total',
    help: 'Token revocations recorded (RFC 7009, grant and family revocations).',
    labelNames: ['kind'] as const,
    registers: [metricsRegistry],
  }),
  tokenRequestsRefused: new Counter({
    name: 'platform_token_requests_refused_total',
    help: 'Token requests refused, by RFC 6749 error code.',
    labelNames: ['error'] as const,
    registers: [metricsRegistry],
  }),
  introspections: new Counter({
    name: 'platform_introspections_total',
    help: 'Introspection requests at the backend, by who answered (backend: judged at the edge; control_plane: relayed).',
    labelNames: ['answered_by'] as const,
    registers: [metricsRegistry],
  }),
  validationCache: new Counter({
    name: 'platform_validation_cache_lookups_total',
    help: 'Backend validation cache lookups, by result (hit or miss).',
    labelNames: ['result'] as const,
    registers: [metricsRegistry],
  }),
  rateLimitDecisions: new Counter({
    name: 'platform_rate_limit_decisions_total',
    help: 'Requests refused by a rate limit policy, by policy.',
    labelNames: ['policy'] as const,
    registers: [metricsRegistry],
  }),
  webhookAttempts: new Counter({
    name: 'platform_webhook_attempts_total',
    help: 'Webhook delivery attempts, by what they left the delivery in (succeeded, pending retry, dead).',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
  }),
  backchannelLogoutAttempts: new Counter({
    name: 'platform_backchannel_logout_attempts_total',
    help: 'Back-channel logout delivery attempts, by what they left the logout in (succeeded, pending retry, dead).',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
  }),
  retentionDeletedRows: new Counter({
    name: 'platform_retention_deleted_rows_total',
    help: 'Rows the retention sweep deleted, by table (docs/operations.md, "Retention").',
    labelNames: ['table'] as const,
    registers: [metricsRegistry],
  }),
  rateLimitStoreErrors: new Counter({
    name: 'platform_rate_limit_store_errors_total',
    help: 'Rate limit store (Redis) failures; counting falls back to memory meanwhile.',
    registers: [metricsRegistry],
  }),
};

/**
 * A gauge read when scraped, for what a process knows on demand (sizes, depths). The newest
 * owner of a name reports it (one per process; tests build several).
 */
export function gaugeOf(name: string, help: string, read: () => number): Gauge {
  metricsRegistry.removeSingleMetric(name);
  return new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    collect() {
      this.set(read());
    },
  });
}

/** What a process holds for its open live streams, by route pattern. */
export interface LiveStreamLoad {
  route: string;
  open: number;
  /** Bytes written to the streams' sockets that their readers have not taken yet. */
  bufferedBytes: number;
}

/**
 * `platform_live_streams_open` and `platform_live_stream_buffered_bytes`, by route, read when
 * scraped. The newest owner reports them (one per process; tests build several).
 */
export function reportLiveStreams(read: () => LiveStreamLoad[]): void {
  const gauge = (name: string, help: string, value: (load: LiveStreamLoad) => number): void => {
    metricsRegistry.removeSingleMetric(name);
    new Gauge({
      name,
      help,
      labelNames: ['route'] as const,
      registers: [metricsRegistry],
      collect() {
        this.reset();
        for (const load of read()) this.set({ route: load.route }, value(load));
      },
    });
  };
  gauge('platform_live_streams_open', 'Live (SSE) streams open, by route.', (load) => load.open);
  gauge(
    'platform_live_stream_buffered_bytes',
    'Bytes written to live streams and not yet taken by their readers, by route.',
    (load) => load.bufferedBytes,
  );
}

const httpChildren = new Map<string, ReturnType<typeof metrics.httpRequests.labels>>();

/**
 * Records one HTTP request. The labelled child is looked up once per (method, route, status)
 * and kept: the hot path pays one map lookup and one bucket search.
 */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  const key = `${method} ${route} ${status}`;
  let child = httpChildren.get(key);
  if (child === undefined) {
    child = metrics.httpRequests.labels(method, route, String(status));
    httpChildren.set(key, child);
  }
  child.observe(seconds);
}

/** The registry in the Prometheus text format, with its content type. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** Answers a plain Node HTTP request with the registry (servers that are not Nest's). */
export function answerMetrics(response: ServerResponse): void {
  void scrape().then(({ contentType, body }) =>
    response.writeHead(200, { 'content-type': contentType }).end(body),
  );
}

/**
 * `GET /metrics` on a port of its own (the backend's admin port, so the public one never shows
 * it); anything else is 404. Resolves once listening, with the server (its owner closes it).
 */
export async function serveMetrics(port: number, host: string): Promise<{ port: number; server: Server }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    answerMetrics(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return { port: (server.address() as AddressInfo).port, server };
}
