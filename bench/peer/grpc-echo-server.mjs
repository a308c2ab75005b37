/**
 * The gRPC floor of the benchmark: a bare grpc-js server answering EchoService/Echo
 * (bench/peer/echo.proto) with the short field of the request. Nothing else runs in it (no Nest, no
 * interceptors, no telemetry), so it is what any unary call over grpc-js costs on this machine.
 *
 * Started by the harness (bench/lib/grpc-floor.mjs) as its own process, as the sidecar is, with
 * ECHO_ADDRESS (host:port, loopback); SIGTERM drains and exits.
 */
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';

const address = process.env.ECHO_ADDRESS;
if (!address) {
  console.error('ECHO_ADDRESS is required');
  process.exit(2);
}

// Decoded as @platform/grpc decodes (its PROTO_LOADER_OPTIONS; the rest touch no field here),
// without importing it: it loads the platform's telemetry, which the floor must not carry.
const definition = loadSync(fileURLToPath(new URL('./echo.proto', import.meta.url)), {
  keepCase: true,
  defaults: true,
});
const { EchoService } = grpc.loadPackageDefinition(definition).bench.floor.v1;

// The sidecar's server options (apps/sidecar/src/grpc/sidecar-grpc.server.ts).
const server = new grpc.Server({
  'grpc.max_receive_message_length': 1024 * 1024,
  'grpc.keepalive_permit_without_calls': 1,
});
server.addService(EchoService.service, {
  Echo: (call, callback) => callback(null, { key: call.request.key }),
});
server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error) => {
  if (error) {
    console.error(`cannot listen on ${address}: ${error.message}`);
    process.exit(1);
  }
  console.log(`ready ${address}`);
});
process.on('SIGTERM', () => server.tryShutdown(() => process.exit(0)));
