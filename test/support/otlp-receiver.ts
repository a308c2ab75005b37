import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as OTLP/HTTP JSON carries it (ids in hex), with the service that sent it. */
export interface ReceivedSpan {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<Omit<ReceivedSpan, 'service'>> }>;
  }>;
}

export interface OtlpReceiver {
  /** Where `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` points. */
  endpoint: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

/**
 * An OTLP/HTTP trace receiver (`POST /v1/traces`, JSON encoding) that keeps what the processes
 * export, so a test can read one trace across all of them: what a collector would receive.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      for (const { resource, scopeSpans = [] } of body.resourceSpans ?? []) {
        const service =
          resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? 'unknown';
        for (const scope of scopeSpans)
          for (const span of scope.spans ?? []) spans.push({ ...span, service });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
