import { startClientSpan, startServerSpan, traceContextHeaders, tracingRequested } from './tracing';

describe('tracingRequested', () => {
  it.each([
    [{}, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'false' }, true],
  ])('%j: %s', (env, on) => {
    expect(tracingRequested(env)).toBe(on);
  });
});

describe('the request hooks with tracing off', () => {
  it('open no span and add no header', () => {
    expect(
      startServerSpan('GET', '/v1/me', { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` }),
    ).toBeUndefined();
    expect(startClientSpan('POST', '/internal/v1/tokens')).toBeUndefined();
    expect(traceContextHeaders()).toEqual({});
  });
});
