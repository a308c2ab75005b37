import * as grpc from '@grpc/grpc-js';
import {
  acceptCorrelationId,
  CORRELATION_HEADER,
  correlationId,
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
