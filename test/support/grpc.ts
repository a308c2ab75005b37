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
