import type * as grpc from '@grpc/grpc-js';

/**
 * Calls a unary method; resolves with the answer or the ServiceError, never rejects. grpc-js
 * hands no response with an error: the specs read `response` only after checking.
 */
export function call<Res>(
  invoke: (callback: (error: grpc.ServiceError | null, response?: Res) => void) => unknown,
): Promise<{ error: grpc.ServiceError | null; response: Res }> {
  return new Promise((resolve) => invoke((error, response) => resolve({ error, response: response as Res })));
}
