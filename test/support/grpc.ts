import * as grpc from '@grpc/grpc-js';

/** grpc-js hands no response with an error; the specs read `response` only after checking. */
export type Callback<Res> = (error: grpc.ServiceError | null, response?: Res) => void;

/** One unary call with a 5 s deadline; resolves with the answer or the ServiceError, never rejects. */
export function unaryCall<Res>(
  invoke: (metadata: grpc.Metadata, options: Partial<grpc.CallOptions>, callback: Callback<Res>) => unknown,
): Promise<{ error: grpc.ServiceError | null; response: Res }> {
  return new Promise((resolve) =>
    invoke(new grpc.Metadata(), { deadline: Date.now() + 5000 }, (error, response) =>
      resolve({ error, response: response as Res }),
    ),
  );
}

/**
 * One call of any RPC by its definition: unary, or a server stream read until its first message
 * (then cancelled) or its end; answers the status it ended with (the fuzz suites and the
 * isolation matrix).
 */
export function invokeRpc(
  client: grpc.Client,
  definition: grpc.MethodDefinition<unknown, unknown>,
  message: unknown,
  metadata: grpc.Metadata = new grpc.Metadata(),
): Promise<{ code: grpc.status; details: string }> {
  const { path, requestSerialize, responseDeserialize } = definition;
  const deadline = Date.now() + 10_000;
  return new Promise((resolve) => {
    if (definition.responseStream) {
      const stream = client.makeServerStreamRequest(
        path,
        requestSerialize,
        responseDeserialize,
        message,
        metadata,
        { deadline },
      );
      stream.on('data', () => {
        stream.cancel();
        resolve({ code: grpc.status.OK, details: '' });
      });
      stream.on('error', (error: grpc.ServiceError) =>
        resolve({ code: error.code, details: error.details ?? '' }),
      );
      stream.on('status', (status: grpc.StatusObject) =>
        resolve({ code: status.code, details: status.details }),
      );
      return;
    }
    client.makeUnaryRequest(
      path,
      requestSerialize,
      responseDeserialize,
      message,
      metadata,
      { deadline },
      (error) =>
        resolve(
          error ? { code: error.code, details: error.details ?? '' } : { code: grpc.status.OK, details: '' },
        ),
    );
  });
}
