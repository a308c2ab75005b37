import * as grpc from '@grpc/grpc-js';
import {
  acceptCorrelationId,
  CORRELATION_HEADER,
  correlationId,
  metrics,
  withCorrelationId,
} from '@platform/telemetry';

/**
 * Client side: every call carries the correlation id of the request that made it as metadata,
 * read from the async context, so no client method takes a request id.
 */
export const correlationInterceptor: grpc.Interceptor = (options, nextCall) =>
  new grpc.InterceptingCall(nextCall(options), {
    start(metadata, listener, next) {
      const id = correlationId();
      if (id !== undefined) metadata.set(CORRELATION_HEADER, id);
      next(metadata, listener);
    },
  });

type Call = { metadata: grpc.Metadata };

/**
 * Server side: runs every handler of `implementation` inside the caller's correlation id (a
 * fresh one when the caller sent none or an unsafe one), so the logger and outgoing calls see it.
 */
export function correlatedHandlers(
  implementation: grpc.UntypedServiceImplementation,
): grpc.UntypedServiceImplementation {
  return Object.fromEntries(
    Object.entries(implementation).map(([method, handler]) => [
      method,
      (call: Call, ...rest: unknown[]) => {
        const [incoming] = call.metadata.get(CORRELATION_HEADER);
        const id = acceptCorrelationId(typeof incoming === 'string' ? incoming : undefined);
        return withCorrelationId(id, () => (handler as (...args: unknown[]) => unknown)(call, ...rest));
      },
    ]),
  ) as grpc.UntypedServiceImplementation;
}

type UnaryCallback = (error: { code?: number } | null, ...rest: unknown[]) => void;

/**
 * Server side: times every unary handler of `service` and counts its outcome by status code
 * name (`platform_grpc_call_duration_seconds`). Streams are left alone: their length says
 * nothing about the server.
 */
export function measuredHandlers(
  implementation: grpc.UntypedServiceImplementation,
  service: string,
): grpc.UntypedServiceImplementation {
  return Object.fromEntries(
    Object.entries(implementation).map(([method, handler]) => {
      const invoke = handler as (...args: unknown[]) => unknown;
      if (invoke.length < 2) return [method, handler];
      const name = `${service}/${method}`;
      return [
        method,
        (call: Call, callback: UnaryCallback) => {
          const started = performance.now();
          return invoke(call, (error: { code?: number } | null, ...rest: unknown[]) => {
            const code = grpc.status[error?.code ?? grpc.status.OK] ?? 'UNKNOWN';
            metrics.grpcCalls.labels(name, code).observe((performance.now() - started) / 1000);
            callback(error, ...rest);
          });
        },
      ];
    }),
  ) as grpc.UntypedServiceImplementation;
}
