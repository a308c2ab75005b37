import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminToken, basic, discover, postForm, registerApp } from '../../support/oauth';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { createScratchDatabase, describeOnPostgres, type ScratchDatabase } from '../../support/postgres';

/** A W3C trace context of a caller that is itself traced: the platform must continue it. */
function callerTrace(): { traceparent: string; traceId: string; spanId: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceparent: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

/** The spans of one trace, once the batches of every process that should be in it arrived. */
async function traceOf(receiver: OtlpReceiver, traceId: string, services: string[]): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const spans = receiver.spans.filter((span) => span.traceId === traceId);
    if (services.every((service) => spans.some((span) => span.service === service))) return spans;
    if (Date.now() > deadline) throw new Error(`trace ${traceId} has only ${JSON.stringify(spans)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A client_credentials request of a new app under a caller's trace, and that trace's spans. */
async function tracedTokenRequest(
  platform: TestPlatform,
  receiver: OtlpReceiver,
  admin: string,
  clientId: string,
): Promise<{ caller: ReturnType<typeof callerTrace>; spans: ReceivedSpan[] }> {
  const app = await registerApp(platform, admin, { client_id: clientId });
  const caller = callerTrace();
  const response = await postForm(
    `${platform.baseUrl}/v1/oauth/token`,
    { grant_type: 'client_credentials' },
    { authorization: basic(app.client_id, app.client_secret!), traceparent: caller.traceparent },
  );
  expect(response.status).toBe(200);
  return {
    caller,
    spans: await traceOf(receiver, caller.traceId, ['platform-backend', 'platform-control-plane']),
  };
}

/** The platform exporting its traces to `receiver` (OTLP/HTTP JSON), batches sent every 50 ms. */
function tracedPlatform(receiver: OtlpReceiver, databaseUrl?: string): Promise<TestPlatform> {
  return startPlatform({
    ...(databaseUrl !== undefined && { databaseUrl }),
    env: {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      LOG_FORMAT: 'json',
    },
  });
}

describe('OpenTelemetry traces across the three processes', () => {
  let platform: TestPlatform;
  let receiver: OtlpReceiver;
  let admin: string;

  /** Every span's parent is the caller's span or another span of the same trace. */
  function expectParentLinksIntact(spans: ReceivedSpan[], callerSpanId: string): void {
    const ids = new Set([callerSpanId, ...spans.map((span) => span.spanId)]);
    for (const span of spans) expect(ids.has(span.parentSpanId ?? '')).toBe(true);
  }

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    platform = await tracedPlatform(receiver);
    admin = await adminToken(await discover(platform), platform);
  });
  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
  });

  it('follows a token request from the backend into the control plane', async () => {
    const { caller, spans } = await tracedTokenRequest(platform, receiver, admin, 'traced');
    const entry = spans.find((span) => span.parentSpanId === caller.spanId)!;
    expect(entry).toMatchObject({ service: 'platform-backend', name: 'POST /v1/oauth/token' });
    const controlPlane = spans.find((span) => span.service === 'platform-control-plane' && span.kind === 2)!;
    expect(controlPlane.name).toMatch(/^POST \/internal\/v1\//);
    expectParentLinksIntact(spans, caller.spanId);
  });

  it('follows a protected request through the sidecar (Authorize) to the control plane', async () => {
    const caller = callerTrace();
    const response = await fetch(`${platform.baseUrl}/api/v1/tenants/default/users`, {
      headers: { authorization: `Bearer ${admin}`, traceparent: caller.traceparent },
    });
    expect(response.status).toBe(200);

    const spans = await traceOf(receiver, caller.traceId, [
      'platform-backend',
      'platform-sidecar',
      'platform-control-plane',
    ]);
    const names = spans.map((span) => `${span.service} ${span.name}`);
    expect(names).toContain('platform-backend GET /api/v1/tenants/:tenant/users');
    expect(names).toContain('platform-sidecar grpc.platform.auth.v1.AuthService/Authorize');
    expect(names).toContain('platform-backend grpc.platform.auth.v1.AuthService/Authorize');
    expectParentLinksIntact(spans, caller.spanId);
  });

  it('writes one trace id into the log lines both ends of a call write', async () => {
    // The backend's WatchInvalidations stream: the sidecar logs it connected, the backend that it
    // is live, each inside its side of the same gRPC call.
    const lines = readFileSync(join(platform.dataDir, 'platform.log'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const backend = lines.find((line) => line.message === 'invalidation stream live; validation cache on')!;
    expect(backend).toMatchObject({ service: 'backend', trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    // The watch that went live (an earlier attempt may have been cut before it did).
    const sidecar = lines.find(
      (line) => line.message === 'invalidation watcher connected' && line.trace_id === backend.trace_id,
    )!;
    expect(sidecar).toMatchObject({ service: 'sidecar', level: 'log' });
    expect(backend.span_id).not.toBe(sidecar.span_id);
  });

  it('never writes a presented secret into the log', async () => {
    const response = await postForm(`${platform.baseUrl}/v1/oauth/token`, {
      grant_type: 'client_credentials',
      client_id: 'traced',
      client_secret: 'not-the-secret-4c1d',
    });
    expect(response.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(readFileSync(join(platform.dataDir, 'platform.log'), 'utf8')).not.toContain('not-the-secret-4c1d');
  });
});

describeOnPostgres('OpenTelemetry database spans on Postgres', () => {
  let database: ScratchDatabase;
  let receiver: OtlpReceiver;
  let platform: TestPlatform;
  beforeAll(async () => {
    [database, receiver] = await Promise.all([createScratchDatabase(), startOtlpReceiver()]);
    platform = await tracedPlatform(receiver, database.url);
  });
  afterAll(async () => {
    await platform?.stop();
    await Promise.all([receiver?.close(), database?.drop()]);
  });

  it("puts the control plane's queries of a token request in its trace", async () => {
    const admin = await adminToken(await discover(platform), platform);
    const { caller, spans } = await tracedTokenRequest(platform, receiver, admin, 'traced-on-postgres');
    const queries = spans.filter(
      (span) => span.service === 'platform-control-plane' && span.name.startsWith('pg'),
    );
    expect(queries.length).toBeGreaterThan(0);
    expect(spans.filter((span) => span.parentSpanId === caller.spanId)).toHaveLength(1);
  });
});
