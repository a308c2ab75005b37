import * as grpc from '@grpc/grpc-js';
import { CORRELATION_HEADER, correlationId, withCorrelationId } from '@platform/telemetry';
import { AUTH_PROTO, AUTH_SERVICE_NAME, createAuthServiceClient, loadProto } from './index';
import { correlatedHandlers } from './correlation';

describe('correlation over gRPC', () => {
  let server: grpc.Server;
  let address: string;
  const seen: Array<{ sent: unknown; inHandler: string | undefined }> = [];

  beforeAll(async () => {
    server = new grpc.Server();
    server.addService(
      loadProto(AUTH_PROTO)[AUTH_SERVICE_NAME] as grpc.ServiceDefinition,
      correlatedHandlers({
        SyncRevocations: (
          call: grpc.ServerUnaryCall<unknown, unknown>,
          callback: grpc.sendUnaryData<unknown>,
        ) => {
          seen.push({ sent: call.metadata.get(CORRELATION_HEADER)[0], inHandler: correlationId() });
          callback(null, { last_seq: 1 });
        },
      }),
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    address = `127.0.0.1:${port}`;
  });
  afterAll(() => server.forceShutdown());

  const sync = (client: ReturnType<typeof createAuthServiceClient>) =>
    new Promise<void>((resolve, reject) =>
      client.SyncRevocations({}, new grpc.Metadata(), {}, (error) => (error ? reject(error) : resolve())),
    );

  it("carries the caller's correlation id into the handler's context", async () => {
    const client = createAuthServiceClient(address);
    await withCorrelationId('req-42', () => sync(client));
    await sync(client);
    client.close();

    expect(seen[0]).toEqual({ sent: 'req-42', inHandler: 'req-42' });
    // A call made outside any request sends none; the handler still runs under a fresh id.
    expect(seen[1].sent).toBeUndefined();
    expect(seen[1].inHandler).toMatch(/^[0-9a-f-]{36}$/);
  });
});
